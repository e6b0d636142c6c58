// Audiences: create them with unique slugs, find them by current or past slug, list them.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { fn, freeText, slugify, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure, type ItemRead } from '#core/db';
import { ownerOfSlug, SlugClaimEntity } from '#core/slugs';
import { AudienceEntity } from './entity';

export { AudienceEntity };
export type Audience = EntityItem<typeof AudienceEntity>;

const SlugSchema = v.pipe(
  v.string(),
  v.check((s) => s === slugify(s) && s.length > 0, 'Invalid slug'),
);

export const AudienceInput = v.object({
  id: v.optional(v.string(), () => ulid()),
  title: v.pipe(
    freeText({ max: 120, tooLong: 'An audience title has at most 120 characters' }),
    v.minLength(3, 'An audience title has at least 3 characters'),
  ),
  slug: SlugSchema,
  pastSlugs: v.optional(v.array(SlugSchema), []),
  tag: v.pipe(
    freeText({ max: 100, tooLong: 'An audience tag has at most 100 characters' }),
    v.minLength(2, 'An audience tag has at least 2 characters'),
  ),
  frequency: v.picklist(['daily', 'weekly']),
  state: v.picklist(['active', 'upcoming']),
  featured: v.optional(v.boolean(), false),
  relatedAudienceIds: v.optional(v.array(v.string()), []),
  createdAt: v.optional(v.pipe(v.string(), v.isoTimestamp()), () => new Date().toISOString()),
});

/** Creates an audience and claims its slug and past slugs in one transaction. */
export const create = fn(AudienceInput, async (input): Promise<Audience> => {
  const slugs = [input.slug, ...input.pastSlugs];
  const result = await createWriteTransaction(
    { audience: AudienceEntity, slugClaim: SlugClaimEntity },
    ({ audience, slugClaim }) => [
      audience.create(input).commit(),
      ...slugs.map((slug) =>
        slugClaim.create({ kind: 'audience', slug, ownerId: input.id }).commit(),
      ),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) {
        throw new VisibleError(
          'audience.slug_taken',
          `The slug "${input.slug}" is already taken`,
          409,
          {
            cause: error,
          },
        );
      }
      throw error;
    });
  if (result.canceled) {
    throw new VisibleError('audience.slug_taken', `The slug "${input.slug}" is already taken`, 409);
  }
  return input as Audience;
});

/** An audience, read together with other items (core/db's getTogether). */
export function audienceRead(id: string): ItemRead<Audience> {
  return {
    key: AudienceEntity.get({ id }).params().Key,
    parse: (item) => AudienceEntity.parse({ Item: item }).data ?? undefined,
  };
}

export async function byId(id: string): Promise<Audience | undefined> {
  const { data } = await AudienceEntity.get({ id }).go();
  return data ?? undefined;
}

export async function byIds(ids: readonly string[]): Promise<Audience[]> {
  if (ids.length === 0) return [];
  const { data } = await AudienceEntity.get(ids.map((id) => ({ id }))).go();
  const found = new Map(data.map((audience) => [audience.id, audience]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

export type SlugLookup =
  { kind: 'found'; audience: Audience } | { kind: 'moved'; slug: string } | { kind: 'missing' };

/** An audience by slug; a past slug answers with the current one so the page can redirect. */
export async function bySlug(slug: string): Promise<SlugLookup> {
  const ownerId = await ownerOfSlug('audience', slug);
  const audience = ownerId ? await byId(ownerId) : undefined;
  if (!audience) return { kind: 'missing' };
  return audience.slug === slug
    ? { kind: 'found', audience }
    : { kind: 'moved', slug: audience.slug };
}

/** Every audience, ordered by title. */
export async function list(): Promise<Audience[]> {
  const { data } = await AudienceEntity.query.all({}).go({ pages: 'all' });
  return data;
}

/** The audiences shown in the menu's 'Browse our audiences' cloud. */
export async function featured(): Promise<Audience[]> {
  return (await list()).filter((audience) => audience.featured);
}
