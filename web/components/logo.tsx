// The Cluefeed mark and word.
export function Logo() {
  return (
    <span className="logo">
      <svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32">
        <rect width="32" height="32" rx="8" fill="#4c2fd6" />
        <circle cx="14" cy="14" r="7" fill="none" stroke="#fff" strokeWidth="3" />
        <path d="M19 19l6 6" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span>Cluefeed</span>
    </span>
  );
}
