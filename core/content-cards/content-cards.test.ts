import { describe, expect, it } from 'vitest';
import {
  createArticle,
  createAudience,
  createCard,
  createPost,
} from '#tests/integration/factories';
import * as Articles from '#core/articles';
import * as ContentCards from '#core/content-cards';
import * as Stories from '#core/stories';

describe('content cards', () => {
  it("reads an audience's cards newest first with their stories", async () => {
    const audience = await createAudience();
    const primary = await createPost(audience.id);
    const secondary = await createPost(audience.id);
    await createCard(audience.id, (await createPost(audience.id)).id, {
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
    for (let day = 1; day <= 7; day++)
      await createCard(audience.id, (await createPost(audience.id)).id, {
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

  it('shows a story in at most one card of a page: the newest card that has it', async () => {
    const audience = await createAudience();
    const [points, fees, hooks, oracles] = await Promise.all(
      ['Points', 'Fees', 'Hooks', 'Oracles'].map((title) => createPost(audience.id, { title })),
    );
    await createCard(audience.id, points!.id, {
      date: '2026-11-20T00:00:00.000Z',
      verbalDescriptor: 'Newest',
      secondaryStoryIds: [fees!.id, points!.id],
    });
    await createCard(audience.id, points!.id, {
      date: '2026-11-19T00:00:00.000Z',
      verbalDescriptor: 'Lead story already shown',
      secondaryStoryIds: [fees!.id, hooks!.id, oracles!.id],
    });
    await createCard(audience.id, fees!.id, {
      date: '2026-11-18T00:00:00.000Z',
      verbalDescriptor: 'Nothing new',
      secondaryStoryIds: [hooks!.id],
    });
    const { cards } = await ContentCards.pageForAudience(audience.id, { limit: 5 });
    const titles = cards.map((card) => [
      card.verbalDescriptor,
      card.primaryStory.title,
      card.secondaryStories.map((story) => story.title),
    ]);
    expect(titles).toEqual([
      ['Newest', 'Points', ['Fees']],
      ['Lead story already shown', 'Hooks', ['Oracles']],
    ]);
    const shown = cards.flatMap((card) => [card.primaryStory, ...card.secondaryStories]);
    expect(new Set(shown.map((story) => story.id)).size).toBe(shown.length);
  });

  it('shows a story in one card of a page however many of its sources were picked, with the others', async () => {
    const audience = await createAudience();
    const reports = [
      {
        source: 'Chain Desk',
        title: 'Mintbridge halts withdrawals after $40 million validator key compromise',
        summary:
          'The Mintbridge cross-chain bridge stopped all withdrawals on Friday after attackers used compromised validator keys to mint $40 million of wrapped ether.',
      },
      {
        source: 'Block Ledger',
        title:
          'Attackers mint $40 million on Mintbridge with compromised validator keys; withdrawals halted',
        summary:
          'Mintbridge halted withdrawals on Friday: an attacker holding compromised validator keys minted $40 million of wrapped ether on the cross-chain bridge.',
      },
    ];
    const [desk, ledger] = await Promise.all(reports.map((report) => createArticle(report)));
    await Stories.joinArticles([desk!.id, ledger!.id]);
    const [joined] = await Articles.byIds([desk!.id]);
    const [deskPost, ledgerPost, hooks] = await Promise.all(
      [desk!.title, ledger!.title, 'Hooks'].map((title) => createPost(audience.id, { title })),
    );
    await createCard(audience.id, deskPost!.id, {
      date: '2026-11-20T00:00:00.000Z',
      verbalDescriptor: 'Newest',
      postArticles: [{ postId: deskPost!.id, articleId: desk!.id }],
    });
    await createCard(audience.id, ledgerPost!.id, {
      date: '2026-11-19T00:00:00.000Z',
      verbalDescriptor: 'Another source of the same story',
      secondaryStoryIds: [hooks!.id],
      postArticles: [{ postId: ledgerPost!.id, articleId: ledger!.id }],
    });
    const { cards } = await ContentCards.pageForAudience(audience.id, { limit: 5 });
    expect(cards.map((card) => [card.verbalDescriptor, card.primaryStory.title])).toEqual([
      ['Newest', desk!.title],
      ['Another source of the same story', 'Hooks'],
    ]);
    expect(cards[0]!.primaryStory).toMatchObject({
      storyKey: joined!.storyId,
      alsoCovered: { count: 1, sources: [{ source: 'Block Ledger', url: ledger!.canonicalUrl }] },
    });
    expect(cards[1]!.primaryStory).toMatchObject({ storyKey: hooks!.id });
    expect(cards[1]!.primaryStory.alsoCovered).toBeUndefined();
    // 'View more' names the story shown above: the other source's card leaves it out too.
    const above = await ContentCards.pageForAudience(audience.id, { limit: 1 });
    const later = await ContentCards.pageForAudience(audience.id, { limit: 5, after: above.next! });
    expect(later.cards[0]!.primaryStory.title).toBe(ledger!.title);
    const shown = ContentCards.shownStoryIds(joined!.storyId!);
    const more = ContentCards.oneCardPerStory(later.cards, shown);
    expect(more.map((card) => card.primaryStory.title)).toEqual(['Hooks']);
  });

  it("leaves out of 'View more' cards the stories the page shows already", async () => {
    const audience = await createAudience();
    const [points, fees, hooks] = await Promise.all(
      ['Points', 'Fees', 'Hooks'].map((title) => createPost(audience.id, { title })),
    );
    await createCard(audience.id, points!.id, {
      date: '2026-11-19T00:00:00.000Z',
      verbalDescriptor: 'Lead shown above',
      secondaryStoryIds: [hooks!.id],
    });
    await createCard(audience.id, fees!.id, {
      date: '2026-11-18T00:00:00.000Z',
      verbalDescriptor: 'All shown above',
    });
    const { cards } = await ContentCards.pageForAudience(audience.id, { limit: 5 });
    const shown = ContentCards.shownStoryIds(`${points!.id},${fees!.id},../x,`);
    expect(shown).toEqual([points!.id, fees!.id]);
    expect(
      ContentCards.oneCardPerStory(cards, shown).map((card) => [
        card.verbalDescriptor,
        card.primaryStory.title,
        card.secondaryStories.length,
      ]),
    ).toEqual([['Lead shown above', 'Hooks', 0]]);
    const many = Array.from({ length: 150 }, (_, n) => `story${String(n).padStart(10, '0')}`);
    const kept = ContentCards.shownStoryIds(many.join(','));
    expect(kept).toEqual(many.slice(-ContentCards.MAX_SHOWN_STORIES));
    expect(ContentCards.shownStoryIds('a'.repeat(20).concat(',').repeat(1000))).toEqual([]);
  });

  it('shows a card whose story repeats itself once on its own page', async () => {
    const audience = await createAudience();
    const post = await createPost(audience.id);
    const card = await createCard(audience.id, post.id, { secondaryStoryIds: [post.id] });
    expect(await ContentCards.byId(card.id)).toMatchObject({
      primaryStory: { id: post.id },
      secondaryStories: [],
    });
  });

  it('answers nothing for an id with characters a card id never has', async () => {
    expect(await ContentCards.byId('../etc')).toBeUndefined();
  });
});
