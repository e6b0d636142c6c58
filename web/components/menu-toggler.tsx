// The summary that opens and closes a menu <details>: three lines and the word 'Menu'.
export function MenuToggler({ className }: { className: string }) {
  return (
    <summary className={className}>
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20">
        <path
          d="M3 5h14M3 10h14M3 15h14"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      <span>Menu</span>
    </summary>
  );
}
