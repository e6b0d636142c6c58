// The word budget that keeps an issue readable in the time the product promises: stories go in
// in selection order while they fit, a story that fits only in part loses the end of its teaser.

/** Reading speed the budgets assume (words per minute). */
export const WORDS_PER_MINUTE = 200;

/**
 * Words per issue. Daily: 1,000 words, 5 minutes at 200 wpm (the spec's 'readable in 5 minutes').
 * Weekly: 2,000 words, 10 minutes; the spec gives no figure, a week's recap may take twice a day's.
 */
export const WORD_BUDGET = { daily: 1_000, weekly: 2_000 } as const;

/** A teaser longer than this is cut even when the budget has room: an issue is for skimming. */
export const TEASER_WORDS = 60;

/** A teaser cut shorter than this says too little; the story is left out instead. */
export const MIN_TEASER_WORDS = 12;

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The first `max` words of a text, with an ellipsis when something was cut. */
export function firstWords(text: string, max: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= max) return words.join(' ');
  return `${words
    .slice(0, max)
    .join(' ')
    .replace(/[\s,;:.!?…-]+$/, '')}…`;
}

/** What a reader reads of a story: every line counts, the teaser is the part that can shrink. */
export type Readable = {
  title: string;
  teaser: string;
  reasons: string[];
  sourceLabel: string;
  update?: string;
  alsoCovered?: { label: string; sources: { source: string }[] };
};

export function storyWords(story: Readable): number {
  return (
    countWords(story.title) +
    countWords(story.teaser) +
    story.reasons.reduce((sum, reason) => sum + countWords(reason), 0) +
    countWords(story.sourceLabel) +
    countWords(story.update ?? '') +
    countWords(story.alsoCovered?.label ?? '') +
    (story.alsoCovered?.sources ?? []).reduce((sum, other) => sum + countWords(other.source), 0)
  );
}

/**
 * Keeps the stories that fit in `budget` words after `frameWords` (headings and intro), in the
 * order given. A story that does not fit whole keeps a shorter teaser if at least
 * MIN_TEASER_WORDS of it fit; otherwise it is left out and a later, shorter story may still fit.
 */
export function fitToBudget<S extends Readable>(
  stories: readonly S[],
  budget: number,
  frameWords: number,
): { kept: S[]; leftOut: number; words: number } {
  let words = frameWords;
  const kept: S[] = [];
  for (const candidate of stories) {
    const story = { ...candidate, teaser: firstWords(candidate.teaser, TEASER_WORDS) };
    const cost = storyWords(story);
    if (words + cost <= budget) {
      kept.push(story);
      words += cost;
      continue;
    }
    const room = budget - words - (cost - countWords(story.teaser));
    if (room >= MIN_TEASER_WORDS) {
      const shortened = { ...story, teaser: firstWords(story.teaser, room) };
      kept.push(shortened);
      words += storyWords(shortened);
    }
  }
  return { kept, leftOut: stories.length - kept.length, words };
}
