import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import { db } from '#core/db';
import * as Articles from '#core/articles';
import { fingerprint } from '#core/feeds';
import { useOwnTable } from '#tests/integration/own-table';

function story(overrides: Partial<Parameters<typeof Articles.storeIfNew>[0]> = {}) {
  const key = ulid().toLowerCase();
  const article = {
    canonicalUrl: `https://news.example/${key}`,
    title: `Story ${key}`,
    summary: `Summary of ${key}.`,
    content: `<p>Text of ${key}.</p>`,
    publishedAt: '2026-11-20T08:00:00.000Z',
    source: 'News',
    streamId: 'stream-1',
    ...overrides,
  };
  return { ...article, fingerprint: overrides.fingerprint ?? fingerprint(article) };
}

// It counts and clears every article in its table: other files' articles (the feed's tests store
// many) must not be in it.
useOwnTable('articles');

describe('Articles', () => {
  it('keeps the id out of the key prefix and finds the article by id and by URL', async () => {
    const input = story();
    expect(await Articles.storeIfNew(input)).toBe('new');
    const stored = (await Articles.byUrl(input.canonicalUrl))!;
    expect(stored.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(Articles.ArticleEntity.get({ id: stored.id }).params().Key).toEqual({
      pk: `article#${stored.id}`,
      sk: 'article',
    });
    expect(await Articles.byId(stored.id)).toMatchObject({ ...input, id: stored.id });
  });

  it('reports a duplicate for a known URL or a known fingerprint, and stores it once', async () => {
    const input = story();
    expect(await Articles.storeIfNew(input)).toBe('new');
    expect(await Articles.storeIfNew({ ...story(), canonicalUrl: input.canonicalUrl })).toBe(
      'duplicate',
    );
    expect(await Articles.storeIfNew({ ...story(), fingerprint: input.fingerprint })).toBe(
      'duplicate',
    );
  });

  it('stores one of several concurrent copies of a story', async () => {
    const input = story();
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => Articles.storeIfNew({ ...input })),
    );
    expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'new']);
  });

  it('falls back to the import time when the feed gave no date, and lists newest first', async () => {
    const undated = story({ publishedAt: undefined });
    await Articles.storeIfNew(undated);
    const stored = (await Articles.byUrl(undated.canonicalUrl))!;
    expect(stored.publishedAt).toBe(stored.importedAt);
    const newest = await Articles.latest(5);
    expect(newest[0]!.publishedAt >= newest.at(-1)!.publishedAt).toBe(true);
    expect(newest.map((article) => article.id)).toContain(stored.id);
  });

  it('counts articles and tells which URLs are known, with their articles', async () => {
    const before = await Articles.count();
    const [a, b] = [story(), story()];
    await Promise.all([Articles.storeIfNew(a), Articles.storeIfNew(b)]);
    expect(await Articles.count()).toBe(before + 2);
    expect(
      await Articles.idsByUrl([a.canonicalUrl, 'https://news.example/unknown', a.canonicalUrl]),
    ).toEqual(new Map([[a.canonicalUrl, (await Articles.byUrl(a.canonicalUrl))!.id]]));
  });

  it('refuses input that is not a normalised article', async () => {
    await expect(Articles.storeIfNew({ ...story(), fingerprint: 'abc' })).rejects.toMatchObject({
      code: 'input.invalid',
    });
  });

  it('counts from a counter kept with each article, not by walking the articles index', async () => {
    const before = await Articles.count();
    const a = story();
    await Promise.all([Articles.storeIfNew(a), Articles.storeIfNew(story())]);
    expect(await Articles.storeIfNew({ ...a, canonicalUrl: `${a.canonicalUrl}?again` })).toBe(
      'duplicate',
    );
    const { client } = db();
    const send = vi.spyOn(client, 'send');
    try {
      expect(await Articles.count()).toBe(before + 2);
      const sent = send.mock.calls.map(([command]) => command.input as Record<string, unknown>);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toHaveProperty('IndexName');
    } finally {
      send.mockRestore();
    }
    expect(await Articles.clearAll()).toBe(before + 2);
    expect(await Articles.count()).toBe(0);
  });
});
