// Review of issue 19 (review19), breaks in the feed route. First: a reader whose clue is longer than the assistant's 300 characters
// (the funnel and `applyClueChanges` accept clues of up to 500: ClueSchema) can neither open the
// assistant from the feed nor get a conversation for a like: every thread is started with the
// reader's clues, and the assistant refuses any over 300 characters with a 400.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, READER_PASSWORD } from '#tests/integration/readers';
import { call, request } from '#tests/integration/route-call';
import { userSessionCookie } from '#web/lib/user.server';
import { action } from './feed';

const ORIGIN = 'http://localhost:3000';
// What the default funnel makes of a starter, a pointer and a long descriptor (the descriptor
// field takes 300 characters; the combined clue is longer).
const LONG_CLUE =
  `I build DeFi protocols for ${'lending markets with isolated collateral '.repeat(8)}`.trim();

async function signedIn(clues: string[]) {
  const reader = await readerWithPassword({ clues });
  const { token } = await Users.signIn(
    { login: reader.email, password: READER_PASSWORD },
    { ip: `192.0.2.${ulid()}` },
  );
  const cookie = (await userSessionCookie().serialize(token)).split(';')[0]!;
  return { user: reader.user, cookie };
}

const post = (fields: Record<string, string>, cookie: string) =>
  request(`${ORIGIN}/feed`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: ORIGIN,
      Cookie: cookie,
    },
  });

describe('a reader whose clue is longer than 300 characters', () => {
  it('is a clue the product stores', async () => {
    expect(LONG_CLUE.length).toBeGreaterThan(300);
    expect(LONG_CLUE.length).toBeLessThanOrEqual(500);
    const { user } = await signedIn([LONG_CLUE]);
    expect((await Users.byId(user.id))!.descriptors!.map((d) => d.clue)).toEqual([LONG_CLUE]);
  });

  it("opens the assistant from the sidebar ('I want to change some of my clues')", async () => {
    const { cookie } = await signedIn([LONG_CLUE]);
    const opened = await call(action, post({ intent: 'open-assistant' }, cookie));
    expect(opened, JSON.stringify(opened.data)).toMatchObject({ status: 302 });
  });

  it('gets a conversation and chips for a like', async () => {
    const { user, cookie } = await signedIn([LONG_CLUE]);
    const story = await createArticle({ title: 'Isolated lending markets ship on a new L2' });
    const liked = await call(
      action,
      post({ intent: 'feedback', articleId: story.id, kind: 'like' }, cookie),
    );
    // The feedback itself is stored (and a rebuild queued) before the conversation is refused.
    const { data: stored } = await Feed.FeedbackEntity.get({
      userId: user.id,
      articleId: story.id,
    }).go();
    expect(stored?.kind).toBe('like');
    expect(liked, JSON.stringify(liked.data)).toMatchObject({
      status: 200,
      data: { intent: 'feedback', chips: expect.arrayContaining([expect.any(String)]) },
    });
  });

  it('can be added through the chip form, after which the assistant still opens', async () => {
    const { cookie } = await signedIn(['I research MEV']);
    const added = await call(
      action,
      post({ intent: 'add-clue', kind: 'like', articleId: ulid(), clue: LONG_CLUE }, cookie),
    );
    expect(added.status).toBe(200);
    const opened = await call(action, post({ intent: 'open-assistant' }, cookie));
    expect(opened, JSON.stringify(opened.data)).toMatchObject({ status: 302 });
  });
});

// The feed's action reads its form before its try: a refused body (VisibleError 413 / 415) is
// thrown out of the action, which Remix answers with a 500.
describe("the feed's action, given a body it refuses", () => {
  const raw = (body: string, type: string, cookie: string) =>
    request(`${ORIGIN}/feed`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': type, Origin: ORIGIN, Cookie: cookie },
    });

  it('answers a form over the size limit with a 4xx, never a 500', async () => {
    const { cookie } = await signedIn(['I research MEV']);
    const answer = await call(
      action,
      raw(
        `intent=send&message=${'x'.repeat(1024 * 1024)}`,
        'application/x-www-form-urlencoded',
        cookie,
      ),
    );
    expect(answer.status, String(answer.error)).toBeGreaterThanOrEqual(400);
    expect(answer.status, String(answer.error)).toBeLessThan(500);
  });

  it('answers a body that is not a form with a 4xx, never a 500', async () => {
    const { cookie } = await signedIn(['I research MEV']);
    const answer = await call(action, raw('{"intent":"images"}', 'application/json', cookie));
    expect(answer.status, String(answer.error)).toBeGreaterThanOrEqual(400);
    expect(answer.status, String(answer.error)).toBeLessThan(500);
  });
});
