// Unique slugs for audiences and posts, and the lookup from any slug (current or past) to its owner.
import { SlugClaimEntity } from './entity';

export { SlugClaimEntity };
export type SlugKind = 'audience' | 'post';

/** Which item owns a slug, current or past. */
export async function ownerOfSlug(kind: SlugKind, slug: string): Promise<string | undefined> {
  const { data } = await SlugClaimEntity.get({ kind, slug }).go();
  return data?.ownerId;
}
