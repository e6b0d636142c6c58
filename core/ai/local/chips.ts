// The clue chips of the feedback banner, as a reader would write them: "More on zero-knowledge
// co-processors", "More on Lumen Labs". Their topics are a liked story's key phrases
// (chat.ts's storyClues, which leaves out those the reader has); a common noun is said in the
// plural a request uses ("co-processor" -> "co-processors"), a name and an uncountable noun
// ("restaking", "data availability") as written.
import type { Story } from '../types';
import { storyClues } from './chat';
import { nounPhrases, standsAlone, words } from './phrases';

/** How storyClues words a clue; the chip keeps only its topic. */
const FOLLOW = /^I follow /;

/** The plural of a countable English noun by its ending ("proof" -> "proofs", "policy" -> "policies"). */
function plural(noun: string): string {
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** A topic as the object of "more on": the last noun phrase's head in the plural when it counts. */
export function asRequested(topic: string): string {
  const list = words(topic);
  const last = nounPhrases(list).at(-1);
  if (!last || last.end !== list.length || standsAlone(last)) return topic;
  // A capital or digit makes a name ("Uniswap v4"), which has no plural.
  if (/[\p{Lu}\p{N}]/u.test(last.head.text)) return topic;
  return topic.slice(0, topic.length - last.head.text.length) + plural(last.head.text);
}

/** Chips for a liked story: "More on ..." for each of up to `max` of its topics. */
export function storyChips(
  story: Pick<Story, 'title' | 'summary'>,
  currentClues: string[],
  max = 2,
): string[] {
  const chips = storyClues(story, currentClues, max).map(
    (clue) => `More on ${asRequested(clue.replace(FOLLOW, ''))}`,
  );
  return [...new Set(chips)];
}
