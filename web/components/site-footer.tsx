// The one footer of every page, home included: About and Privacy links and the copyright line,
// whose year is this year's (the spec's About rule), never a year written down.
import { TrackedLink } from './tracked-link';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label="Footer">
          <TrackedLink to="/about">About</TrackedLink>
          <TrackedLink to="/privacy-policy">Privacy policy</TrackedLink>
        </nav>
        <p className="site-footer__copyright">© {new Date().getFullYear()} Cluefeed</p>
      </div>
    </footer>
  );
}
