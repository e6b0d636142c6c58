// UserSearchTerm: one searchable word of a user (lower-cased e-mail, full name, each name word),
// so User Management's search is a begins_with query on a key range, never a scan.
import { defineEntity } from '#core/db';

export const UserSearchTermEntity = defineEntity({
  model: { entity: 'userSearchTerm', version: '1', service: 'cluefeed' },
  attributes: {
    term: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    /** The sort key itself, `{term}#{userId}`: a prefix query and a cursor both compare it. */
    entry: { type: 'string', required: true },
    /** Every term of the user, so a user matched by several terms is listed once (at the first). */
    terms: { type: 'list', items: { type: 'string' }, required: true },
  },
  indexes: {
    // Users whose term starts with a prefix: pk userSearch, sk begins_with {term}
    byTerm: {
      pk: { field: 'pk', composite: [], template: 'userSearch', casing: 'none' },
      sk: { field: 'sk', composite: ['entry'], template: '${entry}', casing: 'none' },
    },
  },
});

/** The sort key of a user's term; the one place it is built. */
export function searchEntry(term: string, userId: string): string {
  return `${term}#${userId}`;
}
