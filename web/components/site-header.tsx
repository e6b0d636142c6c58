// Header: logo home, the menu toggler (About link and the featured-audience cloud), an About button.
// The menu is a <details> so it opens without JavaScript; with it, any click on an item, Escape or
// a click outside closes it, and so does every navigation.
import { Link, useLocation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { Logo } from './logo';
import { TrackedLink } from './tracked-link';

type FeaturedAudience = { title: string; slug: string };

export function SiteHeader({ featured }: { featured: FeaturedAudience[] }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const close = () => menu.current?.removeAttribute('open');

  useEffect(() => {
    close();
  }, [location.key]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && menu.current?.open) {
        close();
        menu.current.querySelector('summary')?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <Link to="/" className="site-header__home" aria-label="Cluefeed home">
          <Logo />
        </Link>
        <nav className="site-header__actions" aria-label="Main">
          <TrackedLink to="/about" className="button button--ghost">
            About
          </TrackedLink>
          <details className="menu" ref={menu}>
            <summary className="menu__toggler">
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
            {/* Clicks bubble from any link in the panel and close the menu. */}
            <div
              className="menu__panel"
              onClick={(event) => (event.target as Element).closest('a') && close()}
            >
              <TrackedLink to="/about" className="menu__about">
                About
              </TrackedLink>
              <h2 className="menu__heading">Browse our audiences</h2>
              <ul className="cloud">
                {featured.map((audience) => (
                  <li key={audience.slug}>
                    <TrackedLink to={`/a/${audience.slug}`} className="cloud__item">
                      {audience.title}
                    </TrackedLink>
                  </li>
                ))}
              </ul>
            </div>
          </details>
        </nav>
      </div>
    </header>
  );
}
