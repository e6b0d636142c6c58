// The local provider's reason: one sentence a reader would write on why a story is (or is not)
// for them. It says what the story is about with a noun phrase of its title (else its summary)
// that holds what matched, and which clue it serves with a phrase of that clue, never the clues
// whole: "It covers a reentrancy bug in a lending market, for your clue on smart contract
// security." A story without a match says it is outside the reader's clues.
import type { ArticleInput, RelevanceLabel } from '../tasks';
import { fieldCommonWords } from './domain';
import {
  isKnown,
  nounPhrases,
  sentenceCase,
  spell,
  standsAlone,
  withAttachment,
  words,
  type Word,
} from './phrases';

/** A topic longer than this drops its prepositional phrase ("a bug" rather than "a bug in ..."). */
const MAX_TOPIC_WORDS = 10;
/** Enough of a summary for its opening sentences: the topic is looked for there only. */
const SUMMARY_CHARS = 600;

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
  const first = span[0]!.text;
  // A sentence's first word keeps its capital only as a name; the field knows its common nouns
  // ("Stablecoin frameworks" -> "stablecoin frameworks") and their plurals ("Issuers").
  const common = fieldCommonWords();
  const lower = first.toLowerCase();
  const head = !candidate.first
    ? first
    : common.has(lower) || common.has(lower.replace(/s$/, '')) || isKnown(lower.replace(/s$/, ''))
      ? lower
      : sentenceCase(span.slice(0, 2), source);
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

/** A phrase of a clue and how much of the story it explains. */
type Aspect = { text: string; hits: number; words: number };

/**
 * The part of a clue a story serves, in the clue's own words: its noun phrase holding most of the
 * words the story matched, directly or by field (`matched` answers for a stem), the shortest on
 * ties. "I research smart contract security: audits, exploits and formal verification" is
 * served by a story on storage layouts through "smart contract security", and by one on
 * provers through "formal verification". Undefined when the clue has no noun phrase.
 */
export function aspectOf(clue: string, matched: (stem: string) => number): string | undefined {
  const list = words(clue);
  let best: Aspect | undefined;
  for (const phrase of nounPhrases(list)) {
    // A determiner or possessive reads oddly after "your clue on": the phrase starts after it.
    let start = phrase.determiner ? phrase.start + 1 : phrase.start;
    while (start < phrase.end - 1 && list[start]!.possessive) start++;
    const span = list.slice(start, phrase.end);
    const hits = span.flatMap((w) => w.stems).reduce((sum, stem) => sum + matched(stem), 0);
    const found = { text: clueSpelling(span, clue), hits, words: span.length };
    if (!best || hits > best.hits || (hits === best.hits && hits > 0 && found.words < best.words))
      best = found;
  }
  return best && best.hits > 0 ? best.text : best?.text;
}

/** A clue's phrase as it reads mid-sentence: the reader's capitals kept, but not "I"'s sentence. */
function clueSpelling(span: Word[], clue: string): string {
  const first = span[0]!;
  const head = clue.trimStart().startsWith(first.text)
    ? sentenceCase(span.slice(0, 2), clue)
    : first.text;
  return spell([{ ...first, text: head }, ...span.slice(1)]);
}

/**
 * The reason, in one sentence a reader would write: what in the story matched and which of their
 * clues it serves (`aspect`, a phrase of that clue), or that it lies outside their clues. The
 * label is shown beside it, so the sentence does not repeat it.
 */
export function reasonFor(input: {
  label: RelevanceLabel;
  topic?: string;
  aspect?: string;
}): string {
  const { label, topic, aspect } = input;
  if (label === 'Not Relevant' || !aspect) {
    return topic
      ? `Outside your clues: it is about ${topic}.`
      : 'Outside your clues: nothing in its title or summary matches them.';
  }
  if (label === 'Slightly Relevant') {
    return topic
      ? `A loose match: it touches on ${topic}, near your clue on ${aspect}.`
      : `A loose match, near your clue on ${aspect}.`;
  }
  return topic
    ? `It covers ${topic}, for your clue on ${aspect}.`
    : `It matches your clue on ${aspect}.`;
}
