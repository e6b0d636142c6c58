import { describe, expect, it } from 'vitest';
import { createAudience, createCard, createPost } from '#tests/integration/factories';
import * as ContentCards from '#core/content-cards';

describe('content cards', () => {
  it("reads an audience's cards newest first with their stories", async () => {
    const audience = await createAudience();
    const primary = await createPost(audience.id);
    const secondary = await createPost(audience.id);
    await createCard(audience.id, primary.id, {
      date: '2026-11-01T00:00:00.000Z',
      verbalDescriptor: 'Older card',
    });
    await createCard(audience.id, primary.id, {
      date: '2026-11-02T00:00:00.000Z',
      verbalDescriptor: 'Newer card',
      secondaryStoryIds: [secondary.id],
    });
    const { cards, next } = await ContentCards.pageForAudience(audience.id, { limit: 5 });
    expect(next).toBeNull();
    expect(cards.map((c) => c.verbalDescriptor)).toEqual(['Newer card', 'Older card']);
    expect(cards[0]).toMatchObject({
      primaryStory: { id: primary.id },
      secondaryStories: [{ id: secondary.id }],
    });
  });

  it('reads a page of cards and a cursor to the next page', async () => {
    const audience = await createAudience();
    const post = await createPost(audience.id);
    for (let day = 1; day <= 7; day++)
      await createCard(audience.id, post.id, {
        date: `2026-11-0${day}T00:00:00.000Z`,
        verbalDescriptor: `Day ${day}`,
      });
    const first = await ContentCards.pageForAudience(audience.id, { limit: 3 });
    expect(first.cards.map((c) => c.verbalDescriptor)).toEqual(['Day 7', 'Day 6', 'Day 5']);
    expect(ContentCards.isCursor(first.next!)).toBe(true);
    const second = await ContentCards.pageForAudience(audience.id, {
      limit: 3,
      after: first.next!,
    });
    expect(second.cards.map((c) => c.verbalDescriptor)).toEqual(['Day 4', 'Day 3', 'Day 2']);
    const last = await ContentCards.pageForAudience(audience.id, {
      limit: 3,
      after: second.next!,
    });
    expect(last).toMatchObject({ cards: [{ verbalDescriptor: 'Day 1' }], next: null });
    const ignored = await ContentCards.pageForAudience(audience.id, { limit: 3, after: 'junk' });
    expect(ignored.cards.map((c) => c.verbalDescriptor)).toEqual(['Day 7', 'Day 6', 'Day 5']);
    expect(ContentCards.isCursor('junk')).toBe(false);
  });

  it('finds a card from the id at the end of its path slug', async () => {
    const audience = await createAudience();
    const post = await createPost(audience.id);
    const card = await createCard(audience.id, post.id, {
      verbalDescriptor: 'Rollups cut fees again!',
    });
    const segment = ContentCards.pathSlug(card);
    expect(segment).toBe(`rollups-cut-fees-again-${card.id}`);
    expect(ContentCards.idFromPathSlug(segment)).toBe(card.id);
    expect(await ContentCards.byId(ContentCards.idFromPathSlug(segment))).toMatchObject({
      id: card.id,
    });
  });

  it('answers nothing for an id with characters a card id never has', async () => {
    expect(await ContentCards.byId('../etc')).toBeUndefined();
  });
});
