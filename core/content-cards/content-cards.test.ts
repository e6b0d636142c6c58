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
    const cards = await ContentCards.forAudience(audience.id);
    expect(cards.map((c) => c.verbalDescriptor)).toEqual(['Newer card', 'Older card']);
    expect(cards[0]).toMatchObject({
      primaryStory: { id: primary.id },
      secondaryStories: [{ id: secondary.id }],
    });
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
