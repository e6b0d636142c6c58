// Content cards: an audience's daily bundles of stories, read together with their posts and the
// stories their articles belong to (one batch each per page, never a read per card).
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Articles from '#core/articles';
import { fn, slugify } from '#core/common';
import { ulid } from '#core/ids';
import * as Posts from '#core/posts';
import * as Stories from '#core/stories';
import { ContentCardEntity } from './entity';

export { ContentCardEntity };
export type ContentCard = EntityItem<typeof ContentCardEntity>;

/** A post on a card, with the story its article belongs to. */
export type CardStory = Posts.Post & {
  /** Its story's id (the post's own id when it has none): a page shows a story once. */
  storyKey: string;
  /** The story's other sources: how many, and links to the newest few. */
  alsoCovered?: { count: number; sources: { source: string; url: string }[] };
};
export type ContentCardWithStories = ContentCard & {
  primaryStory: CardStory;
  secondaryStories: CardStory[];
};

/** Other sources linked under a story on a card; the count says how many there are. */
export const ALSO_COVERED_LINKS = 5;

/** Cards shown on an audience page before 'View more'. */
export const CARDS_BEFORE_VIEW_MORE = 5;
/** Cards each 'View more' adds. */
export const CARDS_PER_PAGE = 20;
/** Where a page of cards ends: the last card's `{date}~{id}`; the next page starts after it. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)~([0-9A-Za-z]{1,64})$/;

export type CardPage = { cards: ContentCardWithStories[]; next: string | null };

const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));

export const ContentCardInput = v.object({
  id: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-Za-z]+$/, 'A card id has no dashes')), () =>
    ulid(),
  ),
  date: v.pipe(v.string(), v.isoTimestamp()),
  audienceId: v.string(),
  primaryStoryId: v.string(),
  secondaryStoryIds: v.optional(v.array(v.string()), []),
  postArticles: v.optional(v.array(v.object({ postId: v.string(), articleId: v.string() })), []),
  primaryStoriesHeader: Text(120),
  secondaryStoriesHeader: Text(120),
  verbalDescriptor: Text(300),
  createdAt: v.optional(v.pipe(v.string(), v.isoTimestamp()), () => new Date().toISOString()),
});

export const create = fn(ContentCardInput, async (input): Promise<ContentCard> => {
  const slug = slugify(input.verbalDescriptor) || 'stories';
  const { data } = await ContentCardEntity.create({ ...input, slug }).go();
  return data;
});

/** The path segment of a card page: '{slug}-{id}'; the id is the last dash-separated piece. */
export function pathSlug(card: Pick<ContentCard, 'slug' | 'id'>): string {
  return `${card.slug}-${card.id}`;
}

export function idFromPathSlug(pathSegment: string): string {
  return pathSegment.slice(pathSegment.lastIndexOf('-') + 1);
}

export async function byId(id: string): Promise<ContentCardWithStories | undefined> {
  if (!/^[0-9A-Za-z]{1,64}$/.test(id)) return undefined;
  const { data } = await ContentCardEntity.get({ id }).go();
  if (!data) return undefined;
  return oneCardPerStory(await withStories([data]))[0];
}

/**
 * At most this many stories a 'View more' request names as already shown: those shown last, which
 * the next cards (the ones just before them in time) may repeat. The URL stays a few KB.
 */
export const MAX_SHOWN_STORIES = 100;
const STORY_ID = /^[0-9A-Za-z]{10,40}$/;

/**
 * The stories a 'View more' request says the page shows already (`shown`: ids joined by commas,
 * in page order); anything that is not an id is ignored, and only the last MAX_SHOWN_STORIES
 * count.
 */
export function shownStoryIds(value: string | null): string[] {
  if (!value || value.length > MAX_SHOWN_STORIES * 48) return [];
  return value
    .split(',')
    .filter((id) => STORY_ID.test(id))
    .slice(-MAX_SHOWN_STORIES);
}

/** Whether `value` is a cursor `pageForAudience` could have made (anything else is ignored). */
export function isCursor(value: string): boolean {
  return CURSOR.test(value);
}

/**
 * One page of an audience's cards, newest first, each with its stories, starting after `after`
 * (a cursor from an earlier page). Reads `limit + 1` cards to know whether another page exists.
 */
export async function pageForAudience(
  audienceId: string,
  { limit, after }: { limit: number; after?: string },
): Promise<CardPage> {
  const [, date, id] = (after && CURSOR.exec(after)) || [];
  const query = ContentCardEntity.query.byAudience({ audienceId });
  const { data } = await (date && id ? query.lt({ date, id }) : query).go({
    order: 'desc',
    limit: limit + 1,
  });
  const page = data.slice(0, limit);
  const last = page.at(-1);
  return {
    cards: oneCardPerStory(await withStories(page)),
    next: data.length > limit && last ? `${last.date}~${last.id}` : null,
  };
}

/**
 * A story appears in at most one card of a page, however many of its sources were picked: it
 * stays in the first card (the newest) that shows it; a later card leaves it out, and one whose
 * lead story went that way leads with its next story. A card left with no story is not shown.
 * `alreadyShown` holds the story keys the page shows above these cards (a 'View more' that adds
 * cards to it).
 */
export function oneCardPerStory(
  cards: ContentCardWithStories[],
  alreadyShown: Iterable<string> = [],
): ContentCardWithStories[] {
  const shown = new Set<string>(alreadyShown);
  return cards.flatMap((card) => {
    const stories = [card.primaryStory, ...card.secondaryStories].filter(
      (story) => !shown.has(story.storyKey) && shown.add(story.storyKey),
    );
    const [primaryStory, ...secondaryStories] = stories;
    if (!primaryStory) return [];
    return [
      {
        ...card,
        primaryStoryId: primaryStory.id,
        secondaryStoryIds: secondaryStories.map((story) => story.id),
        primaryStory,
        secondaryStories,
      },
    ];
  });
}

/**
 * Joins cards to their posts and their articles' stories, a batch read each; a card whose primary
 * story is gone is dropped.
 */
async function withStories(cards: ContentCard[]): Promise<ContentCardWithStories[]> {
  const ids = cards.flatMap((card) => [card.primaryStoryId, ...(card.secondaryStoryIds ?? [])]);
  const articleOf = new Map(
    cards.flatMap((card) => (card.postArticles ?? []).map((p) => [p.postId, p.articleId])),
  );
  const [posts, articles] = await Promise.all([
    Posts.byIds(ids).then((found) => new Map(found.map((post) => [post.id, post]))),
    Articles.byIds([...new Set(articleOf.values())]),
  ]);
  const stories = await Stories.ofArticles(articles);
  const cardStory = (post: Posts.Post): CardStory => {
    const articleId = articleOf.get(post.id);
    if (articleId === undefined) return { ...post, storyKey: post.id };
    const story = stories.get(articleId);
    const outlets = story ? Stories.otherOutlets(story, articleId).length : 0;
    if (!story || outlets === 0) return { ...post, storyKey: story?.id ?? post.id };
    const others = Stories.otherSources(story, articleId);
    return {
      ...post,
      storyKey: story.id,
      alsoCovered: {
        count: outlets,
        sources: others
          .slice(0, ALSO_COVERED_LINKS)
          .map(({ source, link }) => ({ source, url: link })),
      },
    };
  };
  return cards.flatMap((card) => {
    const primaryStory = posts.get(card.primaryStoryId);
    if (!primaryStory) return [];
    const secondaryStories = (card.secondaryStoryIds ?? []).flatMap((id) => posts.get(id) ?? []);
    return [
      {
        ...card,
        primaryStory: cardStory(primaryStory),
        secondaryStories: secondaryStories.map(cardStory),
      },
    ];
  });
}
