// The local reason as main had it at 446fbaa, for the baseline ranker beside it.
// The local provider's reason: one sentence a reader would write on why a story is (or is not)
// for them. It gives the label, names the clues that matched in the reader's own words, turned
// to "you", and says what the story is about with a noun phrase of its title (else its summary):
// "Quite relevant because you audit smart contracts: it covers a reentrancy bug in a lending
// market."
import type { ArticleInput, RelevanceLabel } from '#core/ai';
import {
  inSecondPerson,
  nounPhrases,
  sentenceCase,
  spell,
  standsAlone,
  withAttachment,
  words,
  type Word,
} from '../../../core/ai/local/phrases';

/** A topic longer than this drops its prepositional phrase ("a bug" rather than "a bug in ..."). */
const MAX_TOPIC_WORDS = 10;
/** More clues than this make a list, not a sentence; the rest stay in relevantClues. */
const NAMED_CLUES = 2;
/** Enough of a summary for its opening sentences: the topic is looked for there only. */
const SUMMARY_CHARS = 600;

const LEAD: Record<RelevanceLabel, string> = {
  'Not Relevant': 'Not relevant',
  'Slightly Relevant': 'Slightly relevant',
  'Moderately Relevant': 'Moderately relevant',
  'Quite Relevant': 'Quite relevant',
  'Very Relevant': 'Very relevant',
};

/** A summary's opening sentences as plain text, cut at a sentence end (else a word end). */
function opening(summary: string): string {
  const text = summary
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= SUMMARY_CHARS) return text;
  const cut = text.slice(0, SUMMARY_CHARS);
  const sentenceEnd = Math.max(...['. ', '! ', '? '].map((end) => cut.lastIndexOf(end)));
  return sentenceEnd > 0 ? cut.slice(0, sentenceEnd + 1) : cut.slice(0, cut.lastIndexOf(' '));
}

type Candidate = { source: string; list: Word[]; span: Word[]; first: boolean; hits: number };

/** The phrase spelt for a sentence's middle: a headline's capital dropped, an article where needed. */
function spelt(candidate: Candidate, needsArticle: boolean): string {
  const { span, source } = candidate;
  const head = candidate.first ? sentenceCase(span.slice(0, 2), source) : span[0]!.text;
  const text = spell([{ ...span[0]!, text: head }, ...span.slice(1)]);
  return needsArticle ? `the ${text}` : text;
}

/**
 * What the story is about: the noun phrase of its title (else its summary's opening) that holds
 * most of the words the clue matched (its own words count double), the first on ties; the title's
 * first phrase when none holds any. Undefined when neither has a noun phrase.
 */
export function topicOf(
  article: ArticleInput,
  matched: { direct: Set<string>; related: Set<string> },
): string | undefined {
  let best: { candidate: Candidate; needsArticle: boolean } | undefined;
  let fallback: typeof best;
  for (const source of [article.title, opening(article.summary)]) {
    const list = words(source);
    const phrases = nounPhrases(list);
    for (const phrase of phrases) {
      const attached = withAttachment(list, phrase, phrases);
      const end = attached - phrase.start <= MAX_TOPIC_WORDS ? attached : phrase.end;
      const span = list.slice(phrase.start, Math.min(end, phrase.start + MAX_TOPIC_WORDS));
      const stems = new Set(span.flatMap((w) => w.stems));
      let hits = 0;
      for (const stem of stems)
        hits += matched.direct.has(stem) ? 2 : matched.related.has(stem) ? 1 : 0;
      // The phrase opens a sentence when nothing but punctuation comes before it.
      const first = list.slice(0, phrase.start).every((w) => w.stems.length === 0);
      const found = {
        candidate: { source, list, span, first, hits },
        needsArticle: !standsAlone(phrase),
      };
      if (hits > (best?.candidate.hits ?? 0)) best = found;
      if (!fallback && source === article.title) fallback = found;
    }
    // A title phrase that holds a matched word says it best; the summary is read only without one.
    if (best) break;
  }
  const chosen = best ?? fallback;
  return chosen && spelt(chosen.candidate, chosen.needsArticle);
}

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * The sentence. `clues` are the clues the story matched, best first (empty when not relevant);
 * `nearest` is the best-scoring clue, which a 'Not Relevant' reason sets the story against.
 */
export function reasonFor(input: {
  label: RelevanceLabel;
  clues: string[];
  nearest: string;
  topic?: string;
}): string {
  const { label, topic } = input;
  if (label === 'Not Relevant') {
    const reader = inSecondPerson(input.nearest);
    return topic
      ? `Not relevant: it is about ${topic}, while ${reader}.`
      : `Not relevant: nothing in its title or summary matches that ${reader}.`;
  }
  const because = listed(input.clues.slice(0, NAMED_CLUES).map(inSecondPerson));
  const what = topic
    ? `: it ${label === 'Slightly Relevant' ? 'touches on' : 'covers'} ${topic}`
    : '';
  return `${LEAD[label]} because ${because}${what}.`;
}
