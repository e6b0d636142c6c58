// Clicks through an issue's signed redirect links: counted once per (issue, reader, story) for
// uniqueClicks and every time for clicks, never for a forged or altered link, never redirected
// anywhere the link was not signed for.
import { ulid } from 'ulid';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as Analytics from '#core/analytics';
import { isVisibleError } from '#core/common';
import { db } from '#core/db';
import * as Newsletter from '#core/newsletter';
import { ClickEntity, NewsletterIssueEntity } from '#core/newsletter';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';

const TARGET = 'https://news.example.org/stories/reentrancy?ref=cluefeed';
let ip = 0;
/** A fresh address per click, so the per-address limit never decides a test that is not about it. */
const from = () => ({ ip: `198.51.100.${(ip += 1) % 250}-${ulid()}` });

async function issue() {
  const { data } = await NewsletterIssueEntity.create({
    id: ulid(),
    origin: 'campaign',
    frequency: 'daily',
    from: '2026-11-19T08:00:00.000Z',
    to: '2026-11-20T08:00:00.000Z',
    audienceIds: [ulid()],
    status: 'done',
    createdAt: new Date().toISOString(),
  }).go();
  return data;
}

const counts = async (issueId: string) => {
  const found = await Newsletter.issueById(issueId);
  return { clicks: found?.clicks, uniqueClicks: found?.uniqueClicks };
};

const clickOf = (issueId: string, subscriberId: string, articleId: string) =>
  ClickEntity.get({ issueId, subscriberId, articleId })
    .go({ consistent: true })
    .then(({ data }) => data);

/** Today's newsletter_click events of an issue. */
async function clickEvents(issueId: string) {
  const today = new Date().toISOString().slice(0, 10);
  return (await Analytics.forDay(today)).filter(
    (event) => event.name === 'newsletter_click' && event.issueId === issueId,
  );
}

/** The issue's story counters, as { articleId: [clicks, uniqueClicks] }. */
async function stories(issueId: string) {
  return Object.fromEntries(
    (await Newsletter.storyClicks(issueId)).map((story) => [
      story.articleId,
      [story.clicks, story.uniqueClicks],
    ]),
  );
}

/** The token of a click link: the last path segment of `{PUBLIC_URL}/r/{token}`. */
const tokenOf = (link: string) => new URL(link).pathname.replace(/^\/r\//, '');

/** The status a refused follow answers, or 'followed' when it was not refused. */
async function refusal(token: unknown): Promise<number | 'followed'> {
  try {
    await Newsletter.followClick(token, from());
    return 'followed';
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    expect(error.message).toBe('This link is not valid');
    return error.status;
  }
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('click links', () => {
  it('is an absolute /r/ link under PUBLIC_URL that carries no readable target', () => {
    const link = Newsletter.clickUrl({
      issueId: 'daily-2026-11-20',
      subscriberId: ulid(),
      articleId: ulid(),
      url: TARGET,
    });
    expect(link).toMatch(/^http:\/\/localhost:3000\/r\/[\w-]+\.[\w-]+$/);
    expect(link).not.toContain('news.example.org');
  });

  it('redirects to the signed target and counts the first click as unique', async () => {
    const { id: issueId } = await issue();
    const subscriberId = ulid();
    const articleId = ulid();
    const link = Newsletter.clickUrl({ issueId, subscriberId, articleId, url: TARGET });

    expect(await Newsletter.followClick(tokenOf(link), from())).toEqual({
      url: TARGET,
      counted: 'unique',
    });
    expect(await counts(issueId)).toEqual({ clicks: 1, uniqueClicks: 1 });
    expect(await clickOf(issueId, subscriberId, articleId)).toMatchObject({
      issueId,
      subscriberId,
      articleId,
    });
    expect(await stories(issueId)).toEqual({ [articleId]: [1, 1] });
    const [event, ...more] = await clickEvents(issueId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      id: `newsletter_click:${issueId}:${subscriberId}:${articleId}`,
      path: '/r',
      articleId,
    });
    // The event names the issue and the story, never the reader's address.
    expect(JSON.stringify(event)).not.toContain('@');
  });

  it('counts a second click of the same reader on the same story in clicks, not uniqueClicks', async () => {
    const { id: issueId } = await issue();
    const reader = ulid();
    const story = ulid();
    const token = tokenOf(
      Newsletter.clickUrl({ issueId, subscriberId: reader, articleId: story, url: TARGET }),
    );
    await Newsletter.followClick(token, from());
    expect((await Newsletter.followClick(token, from())).counted).toBe('repeat');
    expect(await counts(issueId)).toEqual({ clicks: 2, uniqueClicks: 1 });

    // Another story of the same reader, and the same story of another reader, are new pairs.
    for (const [subscriberId, articleId] of [
      [reader, ulid()],
      [ulid(), story],
    ] as const) {
      const other = Newsletter.clickUrl({ issueId, subscriberId, articleId, url: TARGET });
      expect((await Newsletter.followClick(tokenOf(other), from())).counted).toBe('unique');
    }
    expect(await counts(issueId)).toEqual({ clicks: 4, uniqueClicks: 3 });
    expect(await clickEvents(issueId)).toHaveLength(4);
  });

  it('counts concurrent clicks exactly, one unique per reader and story', async () => {
    const { id: issueId } = await issue();
    const story = ulid();
    const readers = Array.from({ length: 6 }, () => ulid());
    const tokens = readers.map((subscriberId) =>
      tokenOf(Newsletter.clickUrl({ issueId, subscriberId, articleId: story, url: TARGET })),
    );
    // Each reader clicks three times at once: 18 transactions on one issue item.
    const followed = await Promise.all(
      [...tokens, ...tokens, ...tokens].map((token) => Newsletter.followClick(token, from())),
    );
    expect(followed.filter((click) => click.counted === 'not')).toEqual([]);
    expect(await counts(issueId)).toEqual({ clicks: 18, uniqueClicks: 6 });
    expect(await stories(issueId)).toEqual({ [story]: [18, 6] });
    expect(await clickEvents(issueId)).toHaveLength(18);
  });

  it('keeps the story counters summing to the issue counts, with one event per click, under a burst of first and repeat clicks', async () => {
    const { id: issueId } = await issue();
    const storyIds = [ulid(), ulid(), ulid()];
    const readers = [ulid(), ulid(), ulid()];
    // Reader i clicks story j (i + j + 1) times, all at once: 18 clicks, 9 of them first clicks.
    const tokens = readers.flatMap((subscriberId, i) =>
      storyIds.flatMap((articleId, j) =>
        Array.from({ length: i + j + 1 }, () =>
          tokenOf(Newsletter.clickUrl({ issueId, subscriberId, articleId, url: TARGET })),
        ),
      ),
    );
    const followed = await Promise.all(
      tokens.map((token) => Newsletter.followClick(token, from())),
    );
    expect(followed.filter((click) => click.counted === 'unique')).toHaveLength(9);
    expect(followed.filter((click) => click.counted === 'repeat')).toHaveLength(tokens.length - 9);

    const issueCounts = await counts(issueId);
    expect(issueCounts).toEqual({ clicks: tokens.length, uniqueClicks: 9 });
    const counters = await Newsletter.storyClicks(issueId);
    expect(counters.map((story) => story.articleId).sort()).toEqual([...storyIds].sort());
    const sum = (key: 'clicks' | 'uniqueClicks') =>
      counters.reduce((total, story) => total + (story[key] ?? 0), 0);
    expect({ clicks: sum('clicks'), uniqueClicks: sum('uniqueClicks') }).toEqual(issueCounts);
    // Story j: clicked (j + 1) + (j + 2) + (j + 3) times by the three readers.
    expect(await stories(issueId)).toEqual(
      Object.fromEntries(storyIds.map((articleId, j) => [articleId, [3 * j + 6, 3]])),
    );

    const events = await clickEvents(issueId);
    expect(events).toHaveLength(sum('clicks'));
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    for (const story of counters) {
      expect(events.filter((event) => event.articleId === story.articleId)).toHaveLength(
        story.clicks ?? 0,
      );
    }
  });

  it('tries again when its transaction collided with another on the same issue', async () => {
    const { id: issueId } = await issue();
    const token = tokenOf(
      Newsletter.clickUrl({ issueId, subscriberId: ulid(), articleId: ulid(), url: TARGET }),
    );
    // DynamoDB Local runs transactions one at a time; DynamoDB cancels one of two that overlap.
    const { client } = db();
    const send = client.send.bind(client);
    let transactions = 0;
    vi.spyOn(client, 'send').mockImplementation(((command: unknown) => {
      // Only the click's own transactions: the rate limit counts in a transaction of its own.
      const ours =
        command instanceof TransactWriteCommand && JSON.stringify(command.input).includes(issueId);
      if (ours && ++transactions === 1) {
        return Promise.reject(
          Object.assign(new Error('Transaction cancelled'), {
            name: 'TransactionCanceledException',
            CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
          }),
        );
      }
      return send(command as never);
    }) as never);

    expect(await Newsletter.followClick(token, from())).toEqual({
      url: TARGET,
      counted: 'unique',
    });
    expect(transactions).toBe(2);
    expect(await counts(issueId)).toEqual({ clicks: 1, uniqueClicks: 1 });
    expect(Object.values(await stories(issueId))).toEqual([[1, 1]]);
    expect(await clickEvents(issueId)).toHaveLength(1);
  });

  it('refuses a forged, altered, expired or malformed link with a 400 and counts nothing', async () => {
    const { id: issueId } = await issue();
    const subscriberId = ulid();
    const articleId = ulid();
    const token = tokenOf(Newsletter.clickUrl({ issueId, subscriberId, articleId, url: TARGET }));
    const [body, signature] = token.split('.') as [string, string];
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');

    const refused: unknown[] = [
      `${body}.${flipped}`,
      `${body}x.${signature}`,
      body,
      `${token}.extra`,
      '',
      'not-a-token',
      'a'.repeat(10_000),
      undefined,
      42,
      // Signed, but for another purpose or with a subject that names no click.
      Tokens.sign('manage', 3600, `${subscriberId}.0`),
      Tokens.sign('click', 3600, 'not json'),
      Tokens.sign('click', 3600, JSON.stringify([issueId, subscriberId, articleId])),
      Tokens.sign('click', 3600, JSON.stringify([issueId, subscriberId, 'a#b', TARGET])),
      Tokens.sign(
        'click',
        3600,
        JSON.stringify([issueId, subscriberId, articleId, 'javascript:alert(1)']),
      ),
      Tokens.sign('click', 3600, JSON.stringify([issueId, subscriberId, articleId, '/relative'])),
    ];
    for (const candidate of refused) {
      expect(await refusal(candidate), String(candidate).slice(0, 60)).toBe(400);
    }

    // A year and a day later the genuine link has expired.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (Newsletter.CLICK_LINK_TTL_SECONDS + 24 * 3600) * 1000);
    expect(await refusal(token)).toBe(400);
    vi.useRealTimers();

    expect(await counts(issueId)).toEqual({ clicks: 0, uniqueClicks: 0 });
    expect(await clickOf(issueId, subscriberId, articleId)).toBeNull();
    expect(await stories(issueId)).toEqual({});
    expect(await clickEvents(issueId)).toEqual([]);
  });

  it("cannot be pointed at another URL: the target is part of the link's signature", async () => {
    const { id: issueId } = await issue();
    const subscriberId = ulid();
    const articleId = ulid();
    const token = tokenOf(Newsletter.clickUrl({ issueId, subscriberId, articleId, url: TARGET }));
    const [body, signature] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { sub: string };
    // The same token with its target swapped, keeping the original signature.
    const swapped = {
      ...payload,
      sub: JSON.stringify([issueId, subscriberId, articleId, 'https://evil.example/phish']),
    };
    const forged = `${Buffer.from(JSON.stringify(swapped)).toString('base64url')}.${signature}`;

    expect(await refusal(forged)).toBe(400);
    expect(await counts(issueId)).toEqual({ clicks: 0, uniqueClicks: 0 });
    expect((await Newsletter.followClick(token, from())).url).toBe(TARGET);
  });

  it('refuses targets that are not http(s) and ids that could break a key when the link is made', () => {
    const base = { issueId: 'daily-2026-11-20', subscriberId: ulid(), articleId: ulid() };
    for (const url of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'mailto:someone@example.org',
      '/p/relative-story',
      '//evil.example/phish',
      `https://example.org/${'x'.repeat(2100)}`,
    ]) {
      expect(() => Newsletter.clickUrl({ ...base, url }), url.slice(0, 40)).toThrow(v.ValiError);
    }
    for (const ids of [{ articleId: 'a#b' }, { subscriberId: '' }, { issueId: 'x'.repeat(65) }]) {
      expect(() => Newsletter.clickUrl({ ...base, ...ids, url: TARGET })).toThrow(v.ValiError);
    }
  });

  it('still redirects a click on an issue that no longer exists, counting nothing', async () => {
    const subscriberId = ulid();
    const articleId = ulid();
    const issueId = ulid();
    const token = tokenOf(Newsletter.clickUrl({ issueId, subscriberId, articleId, url: TARGET }));
    expect(await Newsletter.followClick(token, from())).toEqual({ url: TARGET, counted: 'not' });
    expect(await Newsletter.followClick(token, from())).toEqual({ url: TARGET, counted: 'not' });
    expect(await clickOf(issueId, subscriberId, articleId)).toBeNull();
    expect(await Newsletter.issueById(issueId)).toBeUndefined();
    expect(await stories(issueId)).toEqual({});
    expect(await clickEvents(issueId)).toEqual([]);
  });

  it('redirects a link check (peek) without counting it', async () => {
    const { id: issueId } = await issue();
    const token = tokenOf(
      Newsletter.clickUrl({ issueId, subscriberId: ulid(), articleId: ulid(), url: TARGET }),
    );
    expect(await Newsletter.followClick(token, { ...from(), peek: true })).toEqual({
      url: TARGET,
      counted: 'not',
    });
    expect(await counts(issueId)).toEqual({ clicks: 0, uniqueClicks: 0 });
  });

  it('still redirects past the per-address limit, without counting', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T08:00:10.000Z'));
    const { id: issueId } = await issue();
    const caller = { ip: `203.0.113.9-${ulid()}` };
    const limit = RateLimit.LIMITS.clicksPerIp;
    await Promise.all(Array.from({ length: limit.max }, () => RateLimit.attempt(limit, caller.ip)));
    const token = tokenOf(
      Newsletter.clickUrl({ issueId, subscriberId: ulid(), articleId: ulid(), url: TARGET }),
    );
    expect(await Newsletter.followClick(token, caller)).toEqual({ url: TARGET, counted: 'not' });
    expect(await counts(issueId)).toEqual({ clicks: 0, uniqueClicks: 0 });
  });
});
