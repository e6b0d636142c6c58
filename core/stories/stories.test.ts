import { describe, expect, it, vi } from 'vitest';
import * as Articles from '#core/articles';
import * as Stories from '#core/stories';
import { createArticle } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { StoryBuilderLeaseEntity } from './lease-entity';

// The builder's candidates are every recent story in the table: other files' articles must not
// join these tests' stories.
useOwnTable('stories');

let weeks = 0;
const at = (time: string) =>
  new Date(Date.parse(`2026-11-${time}Z`) + weeks * 7 * 24 * 3_600_000).toISOString();

/** A fresh event's reports, each call a week later, so no two tests' stories meet. */
function bridgeHack() {
  weeks += 1;
  const name = 'Umbra';
  return {
    first: {
      title: `${name} bridge drained of $40 million in private key exploit`,
      summary: `Attackers drained roughly $40 million from the ${name} cross-chain bridge on Tuesday after compromising a validator private key. The team paused deposits and said user funds on the destination chain are safe.`,
      source: 'The Block',
      publishedAt: at('20T08:00:00.000'),
    },
    second: {
      title: `${name} bridge exploited: $40M stolen after validator key compromise`,
      summary: `The ${name} bridge lost about $40 million on Tuesday when an attacker used a compromised validator private key to approve fake withdrawals. Deposits are paused while the team investigates.`,
      source: 'CoinDesk',
      publishedAt: at('20T10:30:00.000'),
    },
    third: {
      title: `${name} bridge says it will repay users after $40 million key exploit`,
      summary: `${name}, the cross-chain bridge drained of $40 million this week through a stolen validator private key, said its treasury will cover user losses and deposits will reopen next week.`,
      source: 'Decrypt',
      publishedAt: at('21T09:00:00.000'),
    },
    otherEvent: {
      title: `Kestrel${name} lending protocol loses $3 million to oracle manipulation`,
      summary: `An attacker manipulated a thinly traded price feed to borrow $3 million from the Kestrel${name} lending markets on Arbitrum, using a flash loan to inflate collateral value.`,
      source: 'The Defiant',
      publishedAt: at('20T09:00:00.000'),
    },
  };
}

const storyIdOf = async (article: Articles.Article) => (await Articles.byId(article.id))?.storyId;

describe('Stories', () => {
  it('joins two sources of one event into one story and keeps another event apart', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    const second = await createArticle(event.second);
    const other = await createArticle(event.otherEvent);

    await Stories.joinArticles([first.id, second.id, other.id]);

    const storyId = await storyIdOf(first);
    expect(storyId).toBe(first.id);
    expect(await storyIdOf(second)).toBe(storyId);
    expect(await storyIdOf(other)).toBe(other.id);
    const story = (await Stories.byId(storyId!))!;
    expect(story).toMatchObject({
      sourceCount: 2,
      revision: 2,
      firstAt: event.first.publishedAt,
      latestAt: event.second.publishedAt,
    });
    expect(story.sources.map((source) => source.source)).toEqual(['CoinDesk', 'The Block']);
    expect(story.sources[0]).toEqual({
      articleId: second.id,
      source: 'CoinDesk',
      link: second.canonicalUrl,
      title: event.second.title,
      publishedAt: event.second.publishedAt,
    });
    expect([event.first.title, event.second.title]).toContain(story.headline);
    expect(story.summary.length).toBeGreaterThan(40);
    expect(story.summary.length).toBeLessThanOrEqual(300);
  });

  it('grows a stored story when a later import brings another source', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    await Stories.joinArticles([first.id]);
    expect(await Stories.byId(first.id)).toMatchObject({ sourceCount: 1, revision: 1 });

    const third = await createArticle(event.third);
    await Stories.joinArticles([third.id]);

    expect(await storyIdOf(third)).toBe(first.id);
    expect(await Stories.byId(first.id)).toMatchObject({
      sourceCount: 2,
      revision: 2,
      latestAt: event.third.publishedAt,
    });
  });

  it('joins nothing twice when an import chunk is delivered again', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    const second = await createArticle(event.second);
    await Stories.joinArticles([first.id, second.id]);
    await Stories.joinArticles([second.id, first.id]);
    expect(await Stories.byId(first.id)).toMatchObject({ sourceCount: 2, revision: 2 });
  });

  it('starts another story for the same words outside the time window', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    const late = await createArticle({
      ...event.second,
      publishedAt: new Date(
        Date.parse(event.first.publishedAt) + (Stories.STORY_WINDOW_HOURS + 1) * 3_600_000,
      ).toISOString(),
    });
    await Stories.joinArticles([first.id, late.id]);
    expect(await storyIdOf(late)).toBe(late.id);
  });

  it('lands both of two imports that join one story at the same moment', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    await Stories.joinArticles([first.id]);
    const second = await createArticle(event.second);
    const third = await createArticle(event.third);

    await Promise.all([Stories.joinArticles([second.id]), Stories.joinArticles([third.id])]);

    expect(await storyIdOf(second)).toBe(first.id);
    expect(await storyIdOf(third)).toBe(first.id);
    const story = (await Stories.byId(first.id))!;
    expect(story).toMatchObject({ sourceCount: 3, revision: 3 });
    expect(story.sources.map((source) => source.articleId)).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
  });

  it('starts one story, not three, when three imports bring one event at the same moment', async () => {
    const event = bridgeHack();
    const articles = await Promise.all(
      [event.first, event.second, event.third].map((report) => createArticle(report)),
    );

    await Promise.all(articles.map((article) => Stories.joinArticles([article.id])));

    const ids = await Promise.all(articles.map(storyIdOf));
    expect(ids[0]).toBeDefined();
    expect(new Set(ids).size).toBe(1);
    expect(await Stories.byId(ids[0]!)).toMatchObject({ sourceCount: 3, revision: 3 });
  });

  it('writes nothing from a pass that lost its lease, and joins its articles on the next pass', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    const second = await createArticle(event.second);
    // Another process takes the lease over (as if this pass had overrun it) just as this pass
    // reads its candidates, and holds it for a moment.
    const recent = Stories.StoryEntity.query.recent.bind(Stories.StoryEntity.query);
    let passes = 0;
    const spy = vi.spyOn(Stories.StoryEntity.query, 'recent').mockImplementation((facets) => {
      const chain = recent(facets);
      passes += 1;
      if (passes > 1) return chain;
      const gte = chain.gte.bind(chain);
      return Object.assign(chain, {
        gte: (...range: Parameters<typeof gte>) => {
          const query = gte(...range);
          const go = query.go.bind(query);
          return Object.assign(query, {
            go: async (...options: Parameters<typeof go>) => {
              await StoryBuilderLeaseEntity.update({})
                .set({ holder: 'another-process', until: new Date(Date.now() + 500).toISOString() })
                .go();
              return go(...options);
            },
          });
        },
      });
    });
    try {
      await Stories.joinArticles([first.id, second.id]);
    } finally {
      spy.mockRestore();
    }

    // The first pass's write was refused; the next pass (after the other's lease ended) joined.
    expect(passes).toBe(2);
    const storyId = await storyIdOf(first);
    expect(storyId).toBe(first.id);
    expect(await storyIdOf(second)).toBe(storyId);
    expect(await Stories.byId(storyId!)).toMatchObject({ sourceCount: 2, revision: 2 });
  });

  it("answers each article's story: a stored one by its storyId, a story of one without", async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    const second = await createArticle(event.second);
    await Stories.joinArticles([first.id, second.id]);
    const alone = await createArticle(event.otherEvent);

    const grouped = await Articles.byIds([first.id, second.id]);
    const stories = await Stories.ofArticles([...grouped, alone]);

    expect(stories.get(first.id)).toEqual(await Stories.byId(first.id));
    expect(stories.get(second.id)?.id).toBe(first.id);
    expect(stories.get(alone.id)).toEqual({
      id: alone.id,
      headline: alone.title,
      summary: alone.summary,
      sources: [
        {
          articleId: alone.id,
          source: alone.source,
          link: alone.canonicalUrl,
          title: alone.title,
          publishedAt: alone.publishedAt,
        },
      ],
      sourceCount: 1,
      firstAt: alone.publishedAt,
      latestAt: alone.publishedAt,
      revision: 1,
    });
  });

  it('deletes every story', async () => {
    const event = bridgeHack();
    const first = await createArticle(event.first);
    await Stories.joinArticles([first.id]);
    expect(await Stories.clearAll()).toBeGreaterThan(0);
    expect(await Stories.byId(first.id)).toBeUndefined();
  });
});
