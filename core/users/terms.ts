// What a user is found by in User Management: the lower-cased e-mail, the full name and each word
// of the name. A query matches a user when one of these starts with it.

/** The most name words indexed, so one user's terms always fit a transaction with the user. */
const MAX_NAME_WORDS = 8;

/** Lower-cased, single-spaced, without `#` (the key separator): how terms and queries compare. */
export function normaliseTerm(text: string): string {
  return text.toLowerCase().replace(/#/g, ' ').replace(/\s+/g, ' ').trim();
}

export function searchTerms(user: { name: string; email: string }): string[] {
  const name = normaliseTerm(user.name);
  const words = name.split(' ').filter(Boolean).slice(0, MAX_NAME_WORDS);
  return [...new Set([normaliseTerm(user.email), name, ...words].filter(Boolean))].sort();
}

/**
 * Whether the item for `term` is the one to list a user under for `query`: the first of their
 * terms that starts with the query. Every other matching term is skipped, so a user matched by
 * their e-mail, full name and a name word is listed once, on whichever page holds the first.
 */
export function isFirstMatch(term: string, terms: string[], query: string): boolean {
  return terms.filter((candidate) => candidate.startsWith(query)).sort()[0] === term;
}
