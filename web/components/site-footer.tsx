// Footer links shared by every page but the landing page, which has its own.
import { useLocation } from '@remix-run/react';
import { TrackedLink } from './tracked-link';

export function SiteFooter() {
  if (useLocation().pathname === '/') return null;
  return (
    <footer className="site-footer">
      <nav aria-label="Footer">
        <TrackedLink to="/about">About</TrackedLink>
        <TrackedLink to="/privacy-policy">Privacy policy</TrackedLink>
      </nav>
    </footer>
  );
}
