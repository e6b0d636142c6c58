// Content cards: an audience's daily bundles of stories, read together with their posts.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import { fn, slugify } from '#core/common';
import * as Posts from '#core/posts';
import { ContentCardEntity } from './entity';

export { ContentCardEntity };
export type ContentCard = EntityItem<typeof ContentCardEntity>;
export type ContentCardWithStories = ContentCard & {
  primaryStory: Posts.Post;
  secondaryStories: Posts.Post[];
};

/** Cards shown on an audience page before 'View more'. */
export const CARDS_BEFORE_VIEW_MORE = 5;

const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));

export const ContentCardInput = v.object({
  id: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-Za-z]+$/, 'A card id has no dashes')), () =>
    ulid(),
  ),
  date: v.pipe(v.string(), v.isoTimestamp()),
  audienceId: v.string(),
  primaryStoryId: v.string(),
  secondaryStoryIds: v.optional(v.array(v.string()), []),
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
  return (await withStories([data]))[0];
}

/** An audience's cards, newest first, each with its stories. */
export async function forAudience(audienceId: string): Promise<ContentCardWithStories[]> {
  const { data } = await ContentCardEntity.query
    .byAudience({ audienceId })
    .go({ order: 'desc', pages: 'all' });
  return withStories(data);
}

/** Joins cards to their posts with one batch read; a card whose primary story is gone is dropped. */
async function withStories(cards: ContentCard[]): Promise<ContentCardWithStories[]> {
  const ids = cards.flatMap((card) => [card.primaryStoryId, ...(card.secondaryStoryIds ?? [])]);
  const posts = new Map((await Posts.byIds(ids)).map((post) => [post.id, post]));
  return cards.flatMap((card) => {
    const primaryStory = posts.get(card.primaryStoryId);
    if (!primaryStory) return [];
    const secondaryStories = (card.secondaryStoryIds ?? []).flatMap((id) => posts.get(id) ?? []);
    return [{ ...card, primaryStory, secondaryStories }];
  });
}
