// UserFeed: the signed-in reader's stories (none yet: the feed issue fills them), the clues they
// have given, and a user menu with Logout. Only for a reader with a session (requireUser).
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { privatePageHeaders } from '#web/lib/cache';
import { requireUser } from '#web/lib/user.server';

export const meta: MetaFunction = () => [{ title: 'Stories for you · Cluefeed' }];
export const headers = privatePageHeaders;
export const handle = { access: 'user' };

const FEED_EMPTY = 'Your stories are being picked. Check back soon.';

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requireUser(request);
  return data(
    {
      name: user.name,
      email: user.email,
      clues: (user.descriptors ?? []).map((descriptor) => ({
        id: descriptor.id,
        clue: descriptor.clue,
      })),
    },
    { headers: { ...headers, 'Cache-Control': 'private, no-store' } },
  );
}

export default function UserFeed() {
  const { name, email, clues } = useLoaderData<typeof loader>();
  return (
    <div className="page feed">
      <nav className="feed__user" aria-label="User menu">
        <p>
          <strong>{name}</strong> <span className="feed__email">{email}</span>
        </p>
        <Form method="post" action="/logout">
          <button type="submit" className="link-button">
            Logout
          </button>
        </Form>
      </nav>
      <div className="feed__columns">
        <section className="feed__stories" aria-labelledby="feed-title">
          <h1 id="feed-title">Stories for you</h1>
          <p className="feed__subtitle">Picked based on the clues you shared</p>
          <p className="feed__empty">{FEED_EMPTY}</p>
        </section>
        <aside className="feed__sidebar" aria-labelledby="feed-clues">
          <h2 id="feed-clues">Here are the clues you&apos;ve given us</h2>
          {clues.length ? (
            <ul className="feed__clues">
              {clues.map((clue) => (
                <li key={clue.id}>{clue.clue}</li>
              ))}
            </ul>
          ) : (
            <p>No clues yet.</p>
          )}
        </aside>
      </div>
    </div>
  );
}
