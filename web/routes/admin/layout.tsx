// The admin panel's frame: the guard, the sidebar (a menu on a phone), and remembering the last
// admin route.
import { data, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { config } from '#core/config';
import { Logo } from '#web/components/logo';
import { MenuToggler } from '#web/components/menu-toggler';
import { lastRouteCookie, requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { useClosingMenu } from '#web/lib/closing-menu';

export const headers = privatePageHeaders;
export const handle = { chrome: 'admin' };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const url = new URL(request.url);
  const remember = url.pathname !== '/admin-panel' && url.pathname !== '/admin-panel/';
  return data(
    { user, outbox: Boolean(config().MAIL_DIR) },
    remember
      ? {
          headers: {
            'Set-Cookie': await lastRouteCookie().serialize(`${url.pathname}${url.search}`),
          },
        }
      : undefined,
  );
}

export default function AdminLayout() {
  const { user, outbox } = useLoaderData<typeof loader>();
  const { menu } = useClosingMenu();
  return (
    <div className="admin">
      <nav className="admin__sidebar" aria-label="Admin">
        <Logo />
        {/* Always open beside the page; on a phone it folds behind 'Menu' (app.css). */}
        <details className="admin__menu" ref={menu}>
          <MenuToggler className="admin__toggler" />
          <ul>
            <li>
              <NavLink to="/admin-panel/campaign-analytics">Campaign analytics</NavLink>
            </li>
            <li>
              <NavLink to="/admin-panel/content-automations">Content Automations</NavLink>
            </li>
            <li>
              <NavLink to="/admin-panel/user-management">
                User Management <span className="badge badge--new">NEW</span>
              </NavLink>
            </li>
            <li>
              <NavLink to="/admin-panel/experiments">Experiments</NavLink>
            </li>
            <li>
              <NavLink to="/admin-panel/setup-campaign">Setup campaign</NavLink>
            </li>
            <li>
              <NavLink to="/admin-panel/logs">Monitor Logs</NavLink>
            </li>
            {outbox && (
              <li>
                <NavLink to="/admin-panel/outbox">Outbox</NavLink>
              </li>
            )}
          </ul>
          <div className="admin__user">
            <p>
              <strong>{user.userName}</strong>
              <br />
              {user.name}
            </p>
            <Form method="post" action="/admin-panel/logout">
              <button type="submit" className="link-button">
                Logout
              </button>
            </Form>
          </div>
        </details>
      </nav>
      <main id="main" className="admin__main">
        <Outlet />
      </main>
    </div>
  );
}
