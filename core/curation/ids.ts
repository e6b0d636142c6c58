// Ids derived from what they name, so a retried run writes to the same items instead of new ones.
import { createHash } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-shaped id (26 Crockford base-32 characters, no dashes) fixed by its parts. */
export function derivedId(...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return Array.from(digest.subarray(0, 26), (byte) => CROCKFORD[byte % 32]).join('');
}

/** The card one run makes for one audience. */
export const contentCardIdFor = (processId: string, audienceId: string) =>
  derivedId('content-card', processId, audienceId);

/** The post of an article picked for an audience (an article is picked once per audience). */
export const postIdFor = (audienceId: string, articleId: string) =>
  derivedId('picked-post', audienceId, articleId);
