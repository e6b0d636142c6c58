// User Management: users 10 a page, newest first, searchable by name or e-mail; add and edit in a
// modal; invite a user with an HTML message and a landing page. Modals are opened by the URL
// (`?modal=add`, `?edit={id}`, `?invite={id}`), so every step works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { AdminModal } from '#web/components/admin-modal';
import { InvitationForm } from '#web/components/invitation-form';
import { ReaderFeed } from '#web/components/reader-feed';
import { Toast } from '#web/components/toast';
import { UserForm } from '#web/components/user-form';
import { When } from '#web/components/when';
import { privatePageHeaders } from '#web/lib/cache';
import {
  userManagementAction,
  userManagementLoader,
  type ActionResult,
  type UserRow,
} from './user-management.server';

export const meta: MetaFunction = () => [{ title: 'User Management · Cluefeed admin' }];
export const headers = privatePageHeaders;

export const loader = ({ request }: LoaderFunctionArgs) => userManagementLoader(request);
export const action = ({ request }: ActionFunctionArgs) => userManagementAction(request);

const PATH = '/admin-panel/user-management';

/** This page's URL with the search and page kept, and `extra` set. */
function href(query: string, cursor: string | undefined, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({
    ...(query && { q: query }),
    ...(cursor && { cursor }),
    ...extra,
  });
  const search = params.toString();
  return search ? `${PATH}?${search}` : PATH;
}

function StatusBadge({ status }: { status: UserRow['status'] }) {
  return <span className={`badge badge--${status.toLowerCase()}`}>{status}</span>;
}

export default function UserManagement() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const current = page.currentCursor;
  const back = href(page.query, current);
  const failed = result && 'error' in result ? result : undefined;
  const toast = result && 'toast' in result ? result : undefined;
  const failedFor = (intent: string) => (failed?.intent === intent ? failed : undefined);
  const editing = page.editing ?? failedFor('edit')?.user;
  const inviting = page.inviting ?? failedFor('invite')?.user;

  return (
    <section className="admin-page">
      <h1>User Management</h1>
      <Toast message={toast?.toast} stamp={toast?.at} />
      {page.error && (
        <p className="error-box" role="alert">
          {page.error}
        </p>
      )}
      {failed?.intent === 'unknown' && (
        <p className="error-box" role="alert">
          {failed.error}
        </p>
      )}
      <div className="user-tools">
        <Form method="get" role="search" className="user-search">
          <label htmlFor="user-search">Search by name or email</label>
          <input
            id="user-search"
            type="search"
            name="q"
            defaultValue={page.query}
            maxLength={254}
          />
          <button type="submit" className="button">
            Search
          </button>
          {page.query && <Link to={PATH}>Clear search</Link>}
        </Form>
        <Link
          to={href(page.query, current, { modal: 'add' })}
          className="button"
          preventScrollReset
        >
          Add user
        </Link>
      </div>

      {page.users.length === 0 ? (
        <p className="notice">{page.query ? 'No users match this search.' : 'No users yet.'}</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Active</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.users.map((user) => (
                <tr key={user.id}>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                  <td>
                    <StatusBadge status={user.status} />
                  </td>
                  <td>{user.isActive ? 'Active' : 'Inactive'}</td>
                  <td>
                    <When iso={user.createdAt} />
                  </td>
                  <td className="user-actions">
                    <Link
                      to={href(page.query, current, { edit: user.id })}
                      aria-label={`Edit ${user.name}`}
                      preventScrollReset
                    >
                      Edit
                    </Link>
                    <Link
                      to={href(page.query, current, { invite: user.id })}
                      aria-label={`Invite ${user.name}`}
                      preventScrollReset
                    >
                      Invite
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        {page.previous && <Link to={href(page.query, page.previous)}>Previous page</Link>}
        {!page.previous && current && <Link to={href(page.query, undefined)}>First page</Link>}
        {page.next && <Link to={href(page.query, page.next)}>Next page</Link>}
      </nav>

      {(page.adding || failedFor('add')) && (
        <AdminModal title="Add user" closeTo={back}>
          <UserForm action={back} serverError={failedFor('add')} />
        </AdminModal>
      )}
      {editing && (
        <AdminModal title="Edit user" closeTo={back}>
          <UserForm key={editing.id} user={editing} action={back} serverError={failedFor('edit')} />
          {page.reader && page.editing?.id === editing.id && <ReaderFeed reader={page.reader} />}
        </AdminModal>
      )}
      {inviting && (
        <AdminModal title={`Invite ${inviting.name}`} closeTo={back}>
          <InvitationForm
            key={inviting.id}
            user={inviting}
            template={page.invitationBody ?? ''}
            variants={page.variants}
            action={back}
            serverError={failedFor('invite')}
          />
        </AdminModal>
      )}
    </section>
  );
}
