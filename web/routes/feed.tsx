// UserFeed (spec: Feed): the signed-in reader's stories from their feed list (core/feed), best
// rated first, with why each is there; a rating filter, an image toggle, 'Load more', feedback
// with the assistant in a side panel, and their clues. Only for a reader with a session
// (requireUser), and what they do not want as chips they can remove (ADR 0045). Every control
// works without JavaScript: the filter is a GET form, 'Load more' a link, the panel a URL
// (`?thread=`), and a form posted is answered by a redirect (a reload never posts it again); with
// JavaScript, 'Load more' appends, feedback stays put and a disliked story leaves the list at
// once, with Undo.
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
  useFetcher,
  useLoaderData,
  useLocation,
  useRevalidator,
} from '@remix-run/react';
import { useEffect, useState } from 'react';
import * as Assistant from '#core/assistant';
import { isVisibleError } from '#core/common';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { AssistantPanel } from '#web/components/feed/assistant-panel';
import { FeedControls } from '#web/components/feed/feed-controls';
import { FeedbackBanner } from '#web/components/feed/feedback-banner';
import { MuteChips } from '#web/components/feed/mute-chips';
import { StoryList } from '#web/components/feed/story-list';
import { readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { FEED_TEXTS, FEEDBACK_BANNERS } from '#web/lib/feed-texts';
import {
  answeredFeedback,
  CHAT_FAILURES,
  chosenRatings,
  dislikedStories,
  feedAction,
  muteChips,
  ratingOptions,
} from '#web/lib/feed.server';
import { requireUser } from '#web/lib/user.server';

export const meta: MetaFunction = () => [{ title: 'Stories for you · Cluefeed' }];
export const headers = privatePageHeaders;
// Stories' images live on their publishers' sites (the page's CSP allows https images).
export const handle = { access: 'user', externalImages: true };

const NO_STORE = { 'Cache-Control': 'private, no-store' };
/** How often an open feed checks whether its update is done. */
const UPDATE_POLL_MS = 4_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requireUser(request);
  await Users.recordFeedVisit(user);
  const url = new URL(request.url);
  let ratings = chosenRatings(url, user);
  const offset = url.searchParams.get('offset') ?? '0';
  let page: Awaited<ReturnType<typeof Feed.page>>;
  try {
    page = await Feed.page(user, { offset, ratings, limit: Feed.PAGE_SIZE });
    // Read from a list rebuilt since the session's read: its default ratings are the ones to use.
    if (page.list !== user) {
      const shown = chosenRatings(url, page.list);
      if (shown.join() !== ratings.join()) {
        ratings = shown;
        page = await Feed.page(page.list, { offset, ratings, limit: Feed.PAGE_SIZE });
      }
    }
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    throw data(error.message, { status: error.status, headers: NO_STORE });
  }
  const updated = url.searchParams.get('updated');
  // A like or dislike posted without JavaScript: shown as given at once, before the list's rebuild.
  const given = await answeredFeedback(user, url);
  const stories = page.stories.map((story) =>
    given && story.articleId === given.articleId ? { ...story, feedback: given.kind } : story,
  );
  return data(
    {
      name: user.name,
      email: user.email,
      clues: (user.descriptors ?? []).map(({ id, clue }) => ({ id, clue })),
      mutes: muteChips(user),
      disliked: dislikedStories(user),
      showImages: user.showImages !== false,
      updating: !!user.feedRequestedAt || !!page.rebuilding,
      build: page.list.feedBuild ?? null,
      ratings,
      options: ratingOptions(page.list),
      offset: Number(offset),
      stories,
      count: page.count,
      total: Object.values(Feed.countsOf(page.list)).reduce((sum, n) => sum + n, 0),
      panel: await Assistant.feedPanel(user.id, url.searchParams.get('thread'), {
        review: url.searchParams.get('chat') !== '1',
      }),
      updated: updated === 'clues' || updated === 'feed' ? updated : undefined,
      feedback: given?.answer,
      // The story a dislike posted without JavaScript took out: its place offers Undo even when
      // the rebuilt list already holds it where these ratings do not show it.
      justDisliked:
        given?.kind === 'dislike' ? { articleId: given.articleId, title: given.title } : null,
    },
    { headers: { ...headers, ...NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, headers } = await requireUser(request);
  const url = new URL(request.url);
  const withParams = (set: Record<string, string | undefined>) => {
    const next = new URLSearchParams(url.search);
    for (const name of [...ANSWER_PARAMS, 'index']) next.delete(name);
    for (const [name, value] of Object.entries(set)) if (value) next.set(name, value);
    const query = next.toString();
    return `/feed${query ? `?${query}` : ''}`;
  };
  // A form the browser posted itself (no JavaScript), not the page's fetch: its answer is a page.
  const documentPost = request.headers.get('Sec-Fetch-Mode') === 'navigate';
  let form = new URLSearchParams();
  try {
    form = await readForm(request);
    const result = await feedAction(user, form);
    switch (result.intent) {
      case 'open-assistant':
      case 'send':
      case 'review':
        return redirect(withParams({ thread: result.threadId }), { headers });
      case 'apply':
        return redirect(withParams({ updated: result.banner }), { headers });
      case 'feedback':
        if (documentPost) return redirect(withParams({ feedback: result.articleId }), { headers });
        break;
      case 'add-clue':
        if (documentPost) return redirect(withParams({ thanked: result.articleId }), { headers });
        break;
      default:
        if (documentPost) return redirect(withParams({}), { headers });
    }
    return data(result, { headers: { ...headers, ...NO_STORE } });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    // On our side (5xx): the spec's words for the operation (§8), never the cause's.
    const message =
      error.status < 500
        ? error.message
        : (CHAT_FAILURES[form.get('intent') ?? ''] ?? FEEDBACK_BANNERS.errorText);
    return data(
      { error: message, articleId: form.get('articleId') ?? undefined },
      { status: error.status, headers: { ...headers, ...NO_STORE } },
    );
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function UserFeed() {
  const loaded = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  const location = useLocation();
  const more = useFetcher<typeof loader>();
  const revalidator = useRevalidator();
  // The pages 'Load more' appended, by offset: a revalidation answers a page again and replaces
  // it; a page from another build (the list was rebuilt meanwhile) is left out, so the reader
  // starts again from the rebuilt first page instead of mixing two orders.
  const [appended, setAppended] = useState<Record<number, LoaderData['stories']>>({});
  const [showImages, setShowImages] = useState(loaded.showImages);
  const pageKey = `${loaded.ratings.join('|')}#${loaded.offset}#${loaded.build}`;

  useEffect(() => {
    setAppended({});
  }, [pageKey]);
  useEffect(() => {
    setShowImages(loaded.showImages);
  }, [loaded.showImages]);
  const firstPageEnd = loaded.offset + loaded.stories.length;
  useEffect(() => {
    const page = more.data;
    if (!page || page.build !== loaded.build) return;
    setAppended((shown) => {
      // The page again (a revalidation), or the next one; never one after a gap.
      const end = Object.values(shown).reduce((sum, stories) => sum + stories.length, firstPageEnd);
      if (!(page.offset in shown) && page.offset !== end) return shown;
      return { ...shown, [page.offset]: page.stories };
    });
  }, [more.data, loaded.build, firstPageEnd]);
  // While the feed updates, look again every few seconds; the notice goes when it is done.
  useEffect(() => {
    if (!loaded.updating) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate();
    }, UPDATE_POLL_MS);
    return () => clearInterval(timer);
  }, [loaded.updating, revalidator]);

  const seen = new Set<string>();
  const stories = [
    ...loaded.stories,
    ...Object.entries(appended)
      .sort(([a], [b]) => Number(a) - Number(b))
      .flatMap(([, page]) => page),
  ].filter((story) => !seen.has(story.articleId) && !!seen.add(story.articleId));
  const loadedUpTo = loaded.offset + stories.length;
  const params = (set: Record<string, string | undefined>) => {
    const next = new URLSearchParams(location.search);
    for (const name of [...ANSWER_PARAMS, 'offset']) next.delete(name);
    for (const [name, value] of Object.entries(set)) if (value) next.set(name, value);
    const query = next.toString();
    return `/feed${query ? `?${query}` : ''}`;
  };
  const panelHref = (threadId: string) => params({ thread: threadId, offset: offsetParam(loaded) });
  const closeHref = params({ offset: offsetParam(loaded) });
  const pageError =
    answered && 'error' in answered && !answered.articleId ? answered.error : undefined;

  return (
    <div className={`page feed${loaded.panel ? ' feed--panel' : ''}`}>
      <nav className="feed__user" aria-label="User menu">
        <p>
          <strong>{loaded.name}</strong> <span className="feed__email">{loaded.email}</span>
        </p>
        <Link to="/account">Your account</Link>
        <Link to="/account/tokens">Access tokens</Link>
        <Form method="post" action="/logout">
          <button type="submit" className="link-button">
            Logout
          </button>
        </Form>
      </nav>
      {loaded.updated && loaded.updating && (
        <div className="feed-banner feed-banner--success" role="status">
          <p className="feed-banner__title">{FEEDBACK_BANNERS.successTitle}</p>
          <p>
            {loaded.updated === 'clues'
              ? FEEDBACK_BANNERS.successClues
              : FEEDBACK_BANNERS.successFeed}
          </p>
        </div>
      )}
      {pageError && !loaded.panel && (
        <div className="feed-banner feed-banner--error" role="alert">
          <p className="feed-banner__title">{FEEDBACK_BANNERS.errorTitle}</p>
          <p>{pageError}</p>
        </div>
      )}
      <div className="feed__columns">
        <section className="feed__stories" aria-labelledby="feed-title">
          <h1 id="feed-title">{FEED_TEXTS.title}</h1>
          <p className="feed__subtitle">{FEED_TEXTS.subtitle}</p>
          {loaded.updating && !loaded.updated && (
            <p className="feed__updating" role="status">
              {FEED_TEXTS.updating}
            </p>
          )}
          {loaded.total > 0 && (
            <FeedControls
              ratings={loaded.ratings}
              options={loaded.options}
              showImages={showImages}
              onImages={setShowImages}
            />
          )}
          {loaded.offset > 0 && stories.length === 0 && (
            <p className="feed__range">
              There {loaded.count === 1 ? 'is 1 story' : `are ${loaded.count} stories`} with these
              ratings. <Link to={params({})}>Back to the first stories</Link>
            </p>
          )}
          {loaded.offset > 0 && stories.length > 0 && (
            <p className="feed__range">
              Stories {loaded.offset + 1}–{loadedUpTo} of {loaded.count}.{' '}
              <Link to={params({})}>Back to the first stories</Link>
            </p>
          )}
          {stories.length > 0 ? (
            <StoryList
              stories={stories}
              showImages={showImages}
              disliked={loaded.disliked}
              justDisliked={loaded.justDisliked}
              view={`${loaded.ratings.join('|')}#${loaded.offset}`}
            />
          ) : loaded.offset > 0 ? null : (
            <p className="feed__empty">
              {loaded.clues.length === 0
                ? FEED_TEXTS.noClues
                : loaded.total === 0
                  ? FEED_TEXTS.picking
                  : FEED_TEXTS.noneWithRatings}
            </p>
          )}
          {/* Kept while the panel is open: the chip that opened it gets focus back (ADR 0051). */}
          <FeedbackBanner
            answered={(loaded.panel ? undefined : answered) ?? loaded.feedback}
            panelHref={panelHref}
          />
          {loadedUpTo < loaded.count && (
            <p className="feed__more">
              <Link
                className="button button--ghost"
                to={params({ offset: String(loadedUpTo) })}
                onClick={(event) => {
                  event.preventDefault();
                  if (more.state === 'idle') more.load(params({ offset: String(loadedUpTo) }));
                }}
                aria-disabled={more.state !== 'idle'}
              >
                {FEED_TEXTS.loadMore}
              </Link>
            </p>
          )}
        </section>
        <aside className="feed__sidebar" aria-labelledby="feed-clues">
          <div className="feed__assistant">
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="open-assistant" />
              <button type="submit" className="button">
                {FEED_TEXTS.changeClues}
              </button>
            </Form>
          </div>
          <h2 id="feed-clues">{FEED_TEXTS.cluesTitle}</h2>
          {loaded.clues.length ? (
            <ul className="feed__clues" aria-labelledby="feed-clues">
              {loaded.clues.map((clue) => (
                <li key={clue.id}>{clue.clue}</li>
              ))}
            </ul>
          ) : (
            <p>No clues yet.</p>
          )}
          <MuteChips chips={loaded.mutes} />
        </aside>
      </div>
      {loaded.panel && (
        <AssistantPanel
          panel={loaded.panel}
          closeHref={closeHref}
          keepChattingHref={`${panelHref(loaded.panel.threadId)}&chat=1`}
          error={pageError}
        />
      )}
    </div>
  );
}

/** What the URL says after an answer (the panel, a banner): dropped by the next move. */
const ANSWER_PARAMS = ['thread', 'chat', 'updated', 'feedback', 'thanked'];

const offsetParam = (loaded: { offset: number }) =>
  loaded.offset > 0 ? String(loaded.offset) : undefined;
