// /account: the signed-in reader's account page. Its section "Your stories in a reader app" turns
// the private feed URL on, shows it once, rotates it and turns it off (ADR 0061). Plain forms,
// each answered by a redirect (POST/redirect/GET); a URL just made reaches the page after that
// redirect in a short-lived, signed, HttpOnly cookie, read once.
import {
  createCookie,
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import * as v from 'valibot';
import { isVisibleError } from '#core/common';
import { config } from '#core/config';
import * as ReaderFeeds from '#core/reader-feeds';
import { readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { formatTime } from '#web/lib/format';
import { useHydrated } from '#web/lib/hydrated';
import { requireUser } from '#web/lib/user.server';

export const meta: MetaFunction = () => [{ title: 'Your account · Cluefeed' }];
export const headers = privatePageHeaders;
export const handle = { access: 'user' };

const PRIVATE = { 'Cache-Control': 'private, no-store' };

export const ACCOUNT_TEXTS = {
  turnedOn: 'Your private feed is on.',
  rotated: 'Your private feed has a new address. The old one no longer works.',
  turnedOff: 'Your private feed is off. Its address no longer works.',
  noIntent: 'Choose to turn on, rotate or turn off your private feed',
} as const;

/** What the last form did, for the page after its redirect. */
const Flash = v.object({
  done: v.optional(v.picklist(['on', 'rotated', 'off'])),
  error: v.optional(v.string()),
  /** A URL just made: its key and id (shown only while it is still the reader's URL). */
  key: v.optional(v.string()),
  id: v.optional(v.string()),
});
type Flash = v.InferOutput<typeof Flash>;

const flashCookie = () =>
  createCookie('cluefeed_account', {
    httpOnly: true,
    sameSite: 'lax',
    secure: config().PUBLIC_URL.startsWith('https://'),
    // '/' and not '/account': the page's data request after the redirect is /account.data.
    path: '/',
    maxAge: 300,
    secrets: [config().APP_SECRET],
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requireUser(request);
  const cookie = flashCookie();
  const read = v.safeParse(Flash, await cookie.parse(request.headers.get('Cookie')));
  const flash: Flash = read.success ? read.output : {};
  const state = await ReaderFeeds.stateOf(user.id);
  const shown = flash.key && state.on && state.id === flash.id ? flash.key : undefined;
  const origin = config().PUBLIC_URL;
  const paths = shown ? ReaderFeeds.feedPaths(shown) : undefined;
  return data(
    {
      state,
      done: flash.done,
      error: flash.error,
      urls: paths && {
        rss: new URL(paths.rss, origin).toString(),
        json: new URL(paths.json, origin).toString(),
        opml: paths.opml,
      },
    },
    {
      headers: {
        ...headers,
        ...PRIVATE,
        // Read once: the URL is gone from the browser as soon as the page has shown it.
        ...(flash.done || flash.error
          ? { 'Set-Cookie': await cookie.serialize('', { maxAge: 0 }) }
          : {}),
      },
    },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, headers } = await requireUser(request);
  let flash: Flash;
  try {
    const form = await readForm(request);
    const intent = form.get('intent');
    const id = form.get('id') ?? '';
    if (intent === 'turn-on') {
      const made = await ReaderFeeds.turnOn(user.id);
      flash = { done: 'on', key: made.key, id: made.id };
    } else if (intent === 'rotate') {
      const made = await ReaderFeeds.rotate(user.id, id);
      flash = { done: 'rotated', key: made.key, id: made.id };
    } else if (intent === 'turn-off') {
      await ReaderFeeds.turnOff(user.id, id);
      flash = { done: 'off' };
    } else {
      flash = { error: ACCOUNT_TEXTS.noIntent };
    }
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    flash = { error: error.message };
  }
  const setCookie = await flashCookie().serialize(flash);
  return redirect('/account', {
    headers: { ...headers, ...PRIVATE, 'Set-Cookie': setCookie },
  });
}

export default function Account() {
  const { state, done, error, urls } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== 'idle';
  return (
    <div className="page narrow tokens">
      <p>
        {/* A document load: the feed's page has its own policy (stories' images). */}
        <Link to="/feed" reloadDocument>
          Back to your stories
        </Link>
      </p>
      <h1>Your account</h1>
      {error && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      <section aria-labelledby="reader-feed">
        <h2 id="reader-feed">Your stories in a reader app</h2>
        <p>
          Follow your stories in any reader app, such as NetNewsWire, Feedly or Inoreader, with a
          private feed address. Each story comes with its rating, why it is in your feed, and links
          to like or dislike it.
        </p>
        {done && !urls && (
          <p className="success-box" role="status">
            {done === 'off'
              ? ACCOUNT_TEXTS.turnedOff
              : ACCOUNT_TEXTS[done === 'on' ? 'turnedOn' : 'rotated']}
          </p>
        )}
        {urls && <NewAddress urls={urls} rotated={done === 'rotated'} />}
        {state.on ? (
          <>
            <p>
              Your private feed is on. Its address was made {formatTime(state.createdAt)}.{' '}
              {!urls &&
                'For your safety it is shown only once, when it is made. Lost it? Rotate it to get a new one.'}
            </p>
            <Form method="post" className="tokens__form">
              <input type="hidden" name="intent" value="rotate" />
              <input type="hidden" name="id" value={state.id} />
              <button type="submit" className="button" disabled={busy}>
                Rotate address
              </button>
              <p className="field__hint">The old address stops working at once.</p>
            </Form>
            <Form method="post" className="tokens__form">
              <input type="hidden" name="intent" value="turn-off" />
              <input type="hidden" name="id" value={state.id} />
              <button type="submit" className="button button--ghost" disabled={busy}>
                Turn off private feed
              </button>
              <p className="field__hint">Reader apps that follow it stop getting your stories.</p>
            </Form>
          </>
        ) : (
          <>
            {done !== 'off' && <p>Your private feed is off.</p>}
            <Form method="post" className="tokens__form">
              <input type="hidden" name="intent" value="turn-on" />
              <button type="submit" className="button" disabled={busy}>
                Turn on private feed
              </button>
            </Form>
          </>
        )}
      </section>
      <section aria-labelledby="account-tokens">
        <h2 id="account-tokens">Access tokens</h2>
        <p>
          Read your stories from your own scripts through the Cluefeed API.{' '}
          <Link to="/account/tokens">Manage your access tokens</Link>
        </p>
      </section>
    </div>
  );
}

/** A URL just made, shown this once, with a copy button when the page runs JavaScript. */
function NewAddress({
  urls,
  rotated,
}: {
  urls: { rss: string; json: string; opml: string };
  rotated: boolean;
}) {
  return (
    <section className="success-box tokens__created" role="status" aria-live="polite">
      <h3>{rotated ? 'Your new private feed address' : 'Your private feed address'}</h3>
      <p>
        Copy it now into your reader app: it will not be shown again. Anyone who has it can read
        your stories, so keep it to yourself.
      </p>
      <Address label="RSS address" id="reader-feed-rss" url={urls.rss} />
      <Address label="JSON Feed address" id="reader-feed-json" url={urls.json} />
      <p>
        <a href={urls.opml} download="cluefeed.opml">
          Download it as an OPML file
        </a>{' '}
        for reader apps that import subscriptions.
      </p>
      <p className="field__hint">
        It shows the stories your feed shows first. To choose ratings, add them to the address, e.g.
        ?rating=Very%20Relevant&amp;rating=Slightly%20Relevant.
      </p>
    </section>
  );
}

function Address({ label, id, url }: { label: string; id: string; url: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <p>
        <strong>{label}</strong>
      </p>
      <code className="tokens__secret" data-testid={id}>
        {url}
      </code>
      {hydrated && (
        <p>
          <button
            type="button"
            className="button button--ghost"
            aria-label={`Copy the ${label}`}
            onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </p>
      )}
    </div>
  );
}
