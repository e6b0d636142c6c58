// /reader-feed/vote?…: where a like or dislike link of a private feed's item opens (ADR 0061).
// Opening it records nothing (link scanners GET); its button POSTs the vote, signed in the URL,
// then comes back here (POST/redirect/GET), which shows the vote as recorded.
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
} from '@remix-run/react';
import { isVisibleError } from '#core/common';
import * as ReaderFeeds from '#core/reader-feeds';
import { LinkError } from '#web/components/link-error';
import { readForm } from '#web/lib/api.server';
import { requireSameSite } from '#web/lib/user.server';

export const meta: MetaFunction = () => [
  { title: 'Your vote · Cluefeed' },
  { name: 'robots', content: 'noindex' },
];
/** The signed link is in the URL: never stored, never sent on to the story's site. */
export const headers = () => ({
  'Cache-Control': 'private, no-store',
  'Referrer-Policy': 'no-referrer',
});

export const VOTE_TEXTS = {
  like: { ask: 'Like this story?', button: 'Record my like', done: 'Your like is recorded' },
  dislike: {
    ask: 'Dislike this story?',
    button: 'Record my dislike',
    done: 'Your dislike is recorded',
  },
  onlyButton: 'Opening this page records nothing: only the button does.',
  after: 'Your feed will be updated with it soon, in your reader app too.',
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const found = await ReaderFeeds.voteOf(new URL(request.url).searchParams);
  if (!found) {
    return data({ ok: false as const, error: ReaderFeeds.READER_FEED_MESSAGES.voteNotValid }, 404);
  }
  const { vote, title, recorded } = found;
  return { ok: true as const, kind: vote.kind, title, recorded };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameSite(request);
  const url = new URL(request.url);
  try {
    await readForm(request);
    await ReaderFeeds.recordVote(url.searchParams);
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data(
      { error: error.message },
      { status: error.status, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  throw redirect(`${url.pathname}${url.search}`, { headers: { 'Cache-Control': 'no-store' } });
}

export default function Vote() {
  const page = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const busy = useNavigation().state !== 'idle';
  if (!page.ok) return <LinkError message={page.error} />;
  const texts = VOTE_TEXTS[page.kind];
  if (page.recorded) {
    return (
      <section className="page narrow center" role="status">
        <h1>{texts.done}</h1>
        <p className="lede">“{page.title}”</p>
        <p>{VOTE_TEXTS.after}</p>
        <p>
          <Link to="/feed" reloadDocument className="button">
            Open your feed
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="page narrow center">
      <h1>{texts.ask}</h1>
      <p className="lede">“{page.title}”</p>
      <p>{VOTE_TEXTS.onlyButton}</p>
      {failed && (
        <p className="error-box" role="alert">
          {failed.error}
        </p>
      )}
      <Form method="post" action={`${pathname}${search}`}>
        <button type="submit" className="button" disabled={busy}>
          {texts.button}
        </button>
      </Form>
    </section>
  );
}
