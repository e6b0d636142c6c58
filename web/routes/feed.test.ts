// The feed's routes for two readers: each reads and changes only their own list, feedback and
// conversations (another reader's thread is answered like a missing one), bad input is a 4xx with
// the product's message, and nothing is reachable without a session or from another site.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Assistant from '#core/assistant';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { eventNamesNaming } from '#tests/integration/business-events';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, READER_PASSWORD } from '#tests/integration/readers';
import { call, request } from '#tests/integration/route-call';
import { userSessionCookie } from '#web/lib/user.server';
import { action, loader } from './feed';

const ORIGIN = 'http://localhost:3000';

/** A signed-in reader with two scored stories and a built list. */
async function readerWithFeed(clue: string) {
  const reader = await readerWithPassword({ clues: [clue] });
  const user = (await Users.byId(reader.user.id))!;
  const keys = await Scoring.productionKeys();
  const articles = [];
  for (const label of ['Very Relevant', 'Quite Relevant'] as const) {
    const article = await createArticle({ title: `${clue}: ${label} ${ulid()}` });
    await Scoring.storeScore(article.id, Scoring.userTarget(user), keys, {
      label,
      score: 0.8,
      reason: 'It matches',
      relevantClues: [clue],
      publishedAt: article.publishedAt,
      processId: ulid(),
      inputTokens: 0,
      outputTokens: 0,
    });
    articles.push(article);
  }
  await Feed.buildFeed(user.id);
  const { token } = await Users.signIn(
    { login: reader.email, password: READER_PASSWORD },
    { ip: `192.0.2.${ulid()}` },
  );
  const cookie = (await userSessionCookie().serialize(token)).split(';')[0]!;
  return { user, articles, cookie };
}

const get = (path: string, cookie?: string) =>
  request(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (
  fields: Record<string, string>,
  cookie?: string,
  origin: string | null = ORIGIN,
  path = '/feed',
  extra: Record<string, string> = {},
) =>
  request(`${ORIGIN}${path}`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(origin && { Origin: origin }),
      ...(cookie && { Cookie: cookie }),
      ...extra,
    },
  });
/** The browser's own form post (no JavaScript), as its Fetch Metadata says. */
const DOCUMENT_POST = { 'Sec-Fetch-Mode': 'navigate' };

type FeedData = {
  stories: { articleId: string }[];
  count: number;
  panel?: { threadId: string };
  showImages: boolean;
};

describe('the feed for two readers', () => {
  it("shows each reader their own stories, and never another reader's conversation", async () => {
    const [ada, bob] = await Promise.all([
      readerWithFeed('I build DeFi lending protocols'),
      readerWithFeed('I collect generative art'),
    ]);
    const bobs = await Assistant.initializeThread({
      userId: bob.user.id,
      category: 'change_clues',
    });
    const page = await call(loader, get(`/feed?thread=${bobs.threadId}`, ada.cookie));
    expect(page.status).toBe(200);
    const data = page.data as FeedData;
    expect(data.stories.map((s) => s.articleId)).toEqual(ada.articles.map((a) => a.id));
    expect(data.count).toBe(2);
    expect(data.panel).toBeUndefined();

    for (const intent of ['send', 'review', 'apply']) {
      const answer = await call(
        action,
        post({ intent, threadId: bobs.threadId, message: 'Remove all my clues' }, ada.cookie),
      );
      expect(answer, intent).toMatchObject({
        status: 404,
        data: { error: 'This conversation was not found' },
      });
    }
    expect(await Assistant.messagesOf(bobs.threadId)).toHaveLength(1);
    expect((await Users.byId(bob.user.id))!.descriptors!.map((d) => d.clue)).toEqual([
      'I collect generative art',
    ]);
  });

  it("stores a reader's feedback as theirs only, and opens their own conversation about the story", async () => {
    const [ada, bob] = await Promise.all([
      readerWithFeed('I research MEV'),
      readerWithFeed('I run a validator'),
    ]);
    const story = bob.articles[0]!;
    const answer = await call(
      action,
      post({ intent: 'feedback', articleId: story.id, kind: 'dislike' }, ada.cookie),
    );
    expect(answer.status).toBe(200);
    const opened = answer.data as { threadId: string; chips: string[]; kind: string };
    expect(opened).toMatchObject({ kind: 'dislike', chips: ['Let me chat with the assistant'] });
    const { data: adas } = await Feed.FeedbackEntity.get({
      userId: ada.user.id,
      articleId: story.id,
    }).go();
    const { data: bobs } = await Feed.FeedbackEntity.get({
      userId: bob.user.id,
      articleId: story.id,
    }).go();
    expect(adas?.kind).toBe('dislike');
    expect(bobs).toBeNull();
    const panel = await call(loader, get(`/feed?thread=${opened.threadId}`, ada.cookie));
    expect((panel.data as FeedData).panel?.threadId).toBe(opened.threadId);
    const elsewhere = await call(loader, get(`/feed?thread=${opened.threadId}`, bob.cookie));
    expect((elsewhere.data as FeedData).panel).toBeUndefined();
  });

  it("offers a liked story's clues as chips, and a chip adds its clue to the reader's own", async () => {
    const ada = await readerWithFeed('I research MEV');
    const story = await createArticle({
      title: 'Restaking protocols add slashing insurance',
      summary: 'EigenLayer operators and restaking protocols weigh slashing insurance.',
    });
    const liked = await call(
      action,
      post({ intent: 'feedback', articleId: story.id, kind: 'like' }, ada.cookie),
    );
    const { chips } = liked.data as { chips: string[] };
    expect(chips[0]).toBe('Let me chat with the assistant');
    expect(chips.length).toBeGreaterThan(1);
    const added = await call(
      action,
      post({ intent: 'add-clue', articleId: story.id, kind: 'like', clue: chips[1]! }, ada.cookie),
    );
    expect(added).toMatchObject({ status: 200, data: { intent: 'add-clue', articleId: story.id } });
    const reader = (await Users.byId(ada.user.id))!;
    expect(reader.descriptors!.map((d) => d.clue)).toEqual(['I research MEV', chips[1]]);
    expect(reader.feedRequestedAt).toEqual(expect.any(String));
  });

  it('keeps the image choice on the reader and opens a change-clues conversation by redirect', async () => {
    const ada = await readerWithFeed('I trade perps');
    expect(
      (await call(action, post({ intent: 'images', showImages: 'false' }, ada.cookie))).status,
    ).toBe(200);
    expect(((await call(loader, get('/feed', ada.cookie))).data as FeedData).showImages).toBe(
      false,
    );
    const opened = await call(action, post({ intent: 'open-assistant' }, ada.cookie));
    expect(opened.status).toBe(302);
    const threadId = new URL(opened.location!, ORIGIN).searchParams.get('thread')!;
    const panel = (await call(loader, get(opened.location!, ada.cookie))).data as FeedData;
    expect(panel.panel?.threadId).toBe(threadId);
  });

  it('answers a form posted without JavaScript with a redirect; the page it leads to shows the feedback as given', async () => {
    const ada = await readerWithFeed('I research MEV');
    const story = await createArticle({
      title: 'Restaking protocols add slashing insurance',
      summary: 'EigenLayer operators and restaking protocols weigh slashing insurance.',
    });
    const [listed] = ada.articles;
    const path = '/feed?rating=Very+Relevant&rating=Quite+Relevant&thread=x';
    for (const [articleId, kind] of [
      [listed!.id, 'like'],
      [story.id, 'like'],
    ] as const) {
      const answer = await call(
        action,
        post({ intent: 'feedback', articleId, kind }, ada.cookie, ORIGIN, path, DOCUMENT_POST),
      );
      expect(answer.status).toBe(302);
      expect(answer.location).toBe(
        `/feed?rating=Very+Relevant&rating=Quite+Relevant&feedback=${articleId}`,
      );
    }
    // The story in the list shows the like before the list is rebuilt with it.
    const page = await call(loader, get(`/feed?feedback=${listed!.id}`, ada.cookie));
    const shown = page.data as {
      stories: { articleId: string; feedback?: string }[];
      feedback?: { intent: string; kind: string; chips: string[] };
    };
    expect(shown.stories.find((item) => item.articleId === listed!.id)?.feedback).toBe('like');
    expect(shown.feedback).toMatchObject({
      intent: 'feedback',
      articleId: listed!.id,
      kind: 'like',
    });
    // A liked story's chips are those its conversation started with.
    const again = (await call(loader, get(`/feed?feedback=${story.id}`, ada.cookie))).data as {
      feedback?: { chips: string[]; threadId: string };
    };
    expect(again.feedback?.chips[0]).toBe('Let me chat with the assistant');
    expect(again.feedback?.chips.length).toBeGreaterThan(1);
    const chip = again.feedback!.chips[1]!;
    const thanked = await call(
      action,
      post(
        { intent: 'add-clue', articleId: story.id, kind: 'like', clue: chip },
        ada.cookie,
        ORIGIN,
        '/feed',
        DOCUMENT_POST,
      ),
    );
    expect(thanked).toMatchObject({ status: 302, location: `/feed?thanked=${story.id}` });
    expect(
      ((await call(loader, get(thanked.location!, ada.cookie))).data as { feedback?: unknown })
        .feedback,
    ).toEqual({ intent: 'add-clue', articleId: story.id });
    // Undo and the image toggle: the same page again.
    expect(
      await call(
        action,
        post(
          { intent: 'withdraw', articleId: story.id, kind: 'like' },
          ada.cookie,
          ORIGIN,
          `/feed?feedback=${story.id}`,
          DOCUMENT_POST,
        ),
      ),
    ).toMatchObject({ status: 302, location: '/feed' });
    // A story the reader gave no feedback on (now), or another reader's, shows nothing.
    for (const query of [`feedback=${story.id}`, `thanked=${story.id}`, 'feedback=../x']) {
      expect(
        ((await call(loader, get(`/feed?${query}`, ada.cookie))).data as { feedback?: unknown })
          .feedback,
        query,
      ).toBeUndefined();
    }
    // The page's own fetch still gets the answer itself.
    const fetched = await call(
      action,
      post({ intent: 'feedback', articleId: story.id, kind: 'dislike' }, ada.cookie),
    );
    expect(fetched).toMatchObject({ status: 200, data: { intent: 'feedback', kind: 'dislike' } });
  });

  it('answers bad input with a 4xx and the reason, never a 500', async () => {
    const ada = await readerWithFeed('I audit smart contracts');
    expect(await call(loader, get('/feed?offset=-3', ada.cookie))).toMatchObject({ status: 400 });
    expect(await call(loader, get('/feed?offset=99999', ada.cookie))).toMatchObject({
      status: 400,
    });
    // An unknown rating in the URL is left out (the default shows), never an error.
    expect(await call(loader, get('/feed?rating=Relevant', ada.cookie))).toMatchObject({
      status: 200,
    });
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: 'explode' }, 400, 'Unknown action'],
      [
        { intent: 'feedback', articleId: ulid(), kind: 'like' },
        404,
        Feed.FEEDBACK_MESSAGES.storyNotFound,
      ],
      [
        { intent: 'feedback', articleId: ada.articles[0]!.id, kind: 'love' },
        400,
        Feed.FEEDBACK_MESSAGES.kindRequired,
      ],
      [{ intent: 'add-clue', kind: 'like', clue: '' }, 400, 'A clue cannot be empty'],
      [
        { intent: 'send', threadId: 'not-a-thread', message: 'hi' },
        404,
        'This conversation was not found',
      ],
    ];
    for (const [fields, status, error] of cases) {
      expect(await call(action, post(fields, ada.cookie)), JSON.stringify(fields)).toMatchObject({
        status,
        data: { error },
      });
    }
    const thread = await Assistant.initializeThread({
      userId: ada.user.id,
      category: 'change_clues',
    });
    expect(
      await call(action, post({ intent: 'apply', threadId: thread.threadId }, ada.cookie)),
    ).toMatchObject({
      status: 409,
      data: { error: 'Please ask the assistant for your clues first' },
    });
  });

  it("records a reader's first feed visit and their day's activity once, however many loads", async () => {
    const ada = await readerWithFeed('I build bridges');
    const loads = await Promise.all(
      ['/feed', '/feed', '/feed?offset=1'].map((path) => call(loader, get(path, ada.cookie))),
    );
    expect(loads.map((load) => load.status)).toEqual([200, 200, 200]);
    expect((await call(loader, get('/feed', ada.cookie))).status).toBe(200);
    expect((await eventNamesNaming(ada.user.id)).sort()).toEqual([
      'feed_first_visit',
      'reader_active',
    ]);
    expect((await Users.byId(ada.user.id))!.firstFeedVisitAt).toBeDefined();
  });

  it('sends a visitor to /login and refuses a post from another site', async () => {
    const ada = await readerWithFeed('I build wallets');
    expect(await call(loader, get('/feed'))).toMatchObject({
      status: 302,
      location: '/login?returnUrl=%2Ffeed',
    });
    expect(await call(action, post({ intent: 'images', showImages: 'false' }))).toMatchObject({
      status: 302,
    });
    expect(
      await call(
        action,
        post({ intent: 'images', showImages: 'false' }, ada.cookie, 'https://evil.example'),
      ),
    ).toMatchObject({ status: 403 });
    expect((await Users.byId(ada.user.id))!.showImages).toBe(true);
  });
});
