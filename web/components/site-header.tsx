// Header: logo home, the menu toggler (About link and the featured-audience cloud), an About button.
// The menu is a closing <details> (web/browser/menu.ts): a click on any of its links closes it too.
import { Link } from '@remix-run/react';
import { useClosingMenu } from '#web/lib/closing-menu';
import { Logo } from './logo';
import { MenuToggler } from './menu-toggler';
import { TrackedLink } from './tracked-link';

type FeaturedAudience = { title: string; slug: string };

export function SiteHeader({ featured }: { featured: FeaturedAudience[] }) {
  const { menu } = useClosingMenu();

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <Link to="/" reloadDocument className="site-header__home" aria-label="Cluefeed home">
          <Logo />
        </Link>
        <nav className="site-header__actions" aria-label="Main">
          <TrackedLink to="/about" className="button button--ghost">
            About
          </TrackedLink>
          <details className="menu" ref={menu}>
            <MenuToggler className="menu__toggler" />
            <div className="menu__panel">
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
