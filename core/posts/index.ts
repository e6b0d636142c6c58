// Posts: create them with unique slugs, read them by slug, by ids (content cards) or by audience.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { fn, slugify, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import { ownerOfSlug, SlugClaimEntity } from '#core/slugs';
import { PostEntity } from './entity';

export { PostEntity };
export { renderMarkdown } from './markdown';
export type Post = EntityItem<typeof PostEntity>;
export type PostType = Post['type'];

const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));

export const WEB_LINK_MESSAGE = 'A link must be a web address starting with http:// or https://';

/** A link readers follow: only http and https, never `javascript:` or `data:`. */
const WebLink = v.pipe(
  v.string(),
  v.url(WEB_LINK_MESSAGE),
  v.check((url) => /^https?:$/.test(new URL(url).protocol), WEB_LINK_MESSAGE),
  v.maxLength(2_000),
);

export const PostInput = v.pipe(
  v.object({
    id: v.optional(v.string(), () => ulid()),
    slug: v.pipe(
      v.string(),
      v.check((s) => s.length > 0 && s === slugify(s), 'Invalid slug'),
    ),
    title: Text(200),
    date: v.pipe(v.string(), v.isoTimestamp()),
    teaser: Text(600),
    cover: v.optional(v.string()),
    minutes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600)),
    type: v.picklist(['article', 'audio', 'video']),
    audienceId: v.string(),
    author: v.object({
      name: Text(100),
      handle: Text(60),
      avatar: Text(300),
      tagLine: Text(160),
      bio: Text(1000),
    }),
    content: v.optional(v.pipe(v.string(), v.maxLength(100_000))),
    reason: v.optional(Text(1000)),
    link: v.optional(
      v.object({
        url: WebLink,
        domain: Text(200),
        comments: v.optional(WebLink),
      }),
    ),
    createdAt: v.optional(v.pipe(v.string(), v.isoTimestamp()), () => new Date().toISOString()),
  }),
  v.check(
    (post) => Boolean(post.link) !== Boolean(post.content),
    'A post has either a link (picked) or content (original), not both',
  ),
);

/** Creates a post and claims its slug in one transaction. */
export const create = fn(PostInput, async (input): Promise<Post> => {
  const taken = () =>
    new VisibleError('post.slug_taken', `The slug "${input.slug}" is already taken`, 409);
  const result = await createWriteTransaction(
    { post: PostEntity, slugClaim: SlugClaimEntity },
    ({ post, slugClaim }) => [
      post.create(input).commit(),
      slugClaim.create({ kind: 'post', slug: input.slug, ownerId: input.id }).commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      throw isConditionFailure(error) ? taken() : error;
    });
  if (result.canceled) throw taken();
  return input as Post;
});

export async function byId(id: string): Promise<Post | undefined> {
  const { data } = await PostEntity.get({ id }).go();
  return data ?? undefined;
}

export async function bySlug(slug: string): Promise<Post | undefined> {
  const ownerId = await ownerOfSlug('post', slug);
  return ownerId ? byId(ownerId) : undefined;
}

/** Posts by id in the order asked; ids that match nothing are left out. */
export async function byIds(ids: readonly string[]): Promise<Post[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const { data } = await PostEntity.get(unique.map((id) => ({ id }))).go();
  const found = new Map(data.map((post) => [post.id, post]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** An audience's newest posts. */
export async function byAudience(audienceId: string, limit: number): Promise<Post[]> {
  const { data } = await PostEntity.query.byAudience({ audienceId }).go({ order: 'desc', limit });
  return data;
}
