// A story's words wherever it is shown (the feed, the digest, the audience pages, the private
// feed): how many other sources tell it, and how many it gained since the reader last had it.
// One place, so the screens and the e-mails say it alike.

const sources = (count: number, what = '') =>
  `${count} ${what}${count === 1 ? 'source' : 'sources'}`;

export const STORY_TEXTS = {
  /** 'also covered by N sources' (the story's sources but the one shown). */
  alsoCoveredBy: (count: number) => `also covered by ${sources(count)}`,
  /** 'updated: N new sources' (sources gained since it was last shown or sent). */
  updated: (count: number) => `updated: ${sources(count, 'new ')}`,
} as const;
