// Unique slugs for audiences and posts, and the lookup from any slug (current or past) to its owner.
import { SlugClaimEntity } from './entity';

export { SlugClaimEntity };
export type SlugKind = 'audience' | 'post';
export const MAX_SLUG_LENGTH = 200;

/** Which item owns a slug, current or past. */
export async function ownerOfSlug(kind: SlugKind, slug: string): Promise<string | undefined> {
  // No slug is this long; a longer one would not even fit in a key.
  if (slug.length === 0 || slug.length > MAX_SLUG_LENGTH) return undefined;
  const { data } = await SlugClaimEntity.get({ kind, slug }).go();
  return data?.ownerId;
}
