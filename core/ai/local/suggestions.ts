// More specific versions of a reader's own descriptor, from the background lines closest to it.
// A suggestion keeps every word the reader wrote, in order, and adds words only where English
// puts them: modifiers before the head noun of one of its noun phrases ("build DeFi protocols" ->
// "build DeFi lending protocols"), a prepositional phrase after a phrase that ends it ("audit
// smart contracts" -> "audit smart contracts for reentrancy"), or an object after a verb that
// ends it ("build" -> "build developer tools"). When no line offers such words, there is none.
import { BACKGROUND } from './background';
import {
  nounPhrases,
  sentenceCase,
  spell,
  standsAlone,
  withAttachment,
  words,
  type NounPhrase,
  type Word,
} from './phrases';

const MAX_SUGGESTIONS = 3;
const MAX_CHARS = 300;
/** A prepositional phrase longer than this is a clause of its own, not a qualifier. */
const MAX_ATTACHED_WORDS = 4;
/** Words that make a descriptor longer, not more specific. */
const VAGUE = new Set([
  'new',
  'latest',
  'recent',
  'big',
  'major',
  'first',
  'next',
  'last',
  'more',
  'other',
  'top',
  'key',
  'whole',
  'different',
  'critical',
  'users',
  'user',
]);
const NOUNS = new Set(['NOUN', 'PROPN']);
/** Words after which a descriptor's first word is its verb ("those who vote in a DAO"). */
const SUBJECTS = new Set(['i', 'who', 'we', 'they', 'that']);
/** Determiners that fix the word after them ("an app" cannot become "an Solana app"). */
const INDEFINITE = new Set(['a', 'an']);

type Line = { list: Word[]; phrases: NounPhrase[] };

let lines: Line[] | undefined;

/** The background lines as words and phrases, analysed once per process. */
function backgroundLines(): Line[] {
  lines ??= BACKGROUND.map((line) => {
    const list = words(line);
    return { list, phrases: nounPhrases(list) };
  });
  return lines;
}

const key = (w: Word) => w.stems.join('-') || w.lower;
const isContent = (w: Word) => w.stems.length > 0 && !VAGUE.has(w.lower);

/** A phrase's words after its determiner. */
const body = (list: Word[], phrase: NounPhrase) =>
  list.slice(phrase.determiner ? phrase.start + 1 : phrase.start, phrase.end);

/**
 * Where each of `own` sits in `other`, in order, or undefined when `own` is not a subsequence of
 * it (by stem, so "protocols" finds "protocol").
 */
function positionsIn(own: Word[], other: Word[]): number[] | undefined {
  const positions: number[] = [];
  let from = 0;
  for (const w of own) {
    const at = other.findIndex((o, i) => i >= from && key(o) === key(w));
    if (at < 0) return undefined;
    positions.push(at);
    from = at + 1;
  }
  return positions;
}

type Edit = { start: number; end: number; words: Word[] };

/** The reader's words with one span replaced, spaced as written. */
function apply(own: Word[], edit: Edit): string {
  const inserted = edit.words.map((w, i) => ({
    ...w,
    spaced: i === 0 ? (own[edit.start]?.spaced ?? true) : true,
  }));
  return spell([...own.slice(0, edit.start), ...inserted, ...own.slice(edit.end)]).trim();
}

const BACKGROUND_TEXT = BACKGROUND.join('\n');

/** A background word as it reads mid-sentence (a line's first word loses its capital). */
function asWritten(line: Line, index: number): Word {
  const w = line.list[index]!;
  const text = index === 0 ? sentenceCase(line.list.slice(0, 2), BACKGROUND_TEXT) : w.text;
  return { ...w, text, spaced: true };
}

/**
 * Modifiers before the head: a line's phrase (or its start, up to a noun: "Ethereum rollup" of
 * "Ethereum rollup fees") that holds all of the reader's phrase's words in order, ending in the
 * same head noun, gives its other words where they stand in it.
 */
function modified(own: Word[], phrase: NounPhrase, line: Line): Edit[] {
  const mine = body(own, phrase);
  return line.phrases.flatMap((other) => {
    const whole = body(line.list, other);
    const offset = other.determiner ? other.start + 1 : other.start;
    return whole.flatMap((last, end) => {
      if (!NOUNS.has(last.pos) || key(last) !== key(phrase.head)) return [];
      const theirs = whole.slice(0, end + 1);
      const positions = positionsIn(mine, theirs);
      if (!positions || positions.at(-1) !== end) return [];
      // Vague words in front ("New DeFi lending protocol") are left out.
      let first = 0;
      while (first < positions[0]! && !isContent(theirs[first]!)) first++;
      const kept = theirs.slice(first);
      const at = positions.map((p) => p - first);
      const added = kept.filter((_, i) => !at.includes(i));
      const fresh = (w: Word) => isContent(w) && !w.plural && !own.some((o) => key(o) === key(w));
      if (added.length === 0 || !added.every(fresh)) return [];
      // "an app" -> "an Solana app": the word after a/an must stay the reader's.
      if (phrase.determiner && INDEFINITE.has(phrase.determiner.lower) && at[0] !== 0) return [];
      const merged = kept.map((w, i) => {
        const mineAt = at.indexOf(i);
        return mineAt >= 0 ? mine[mineAt]! : asWritten(line, offset + first + i);
      });
      const start = phrase.determiner ? phrase.start + 1 : phrase.start;
      return [{ start, end: phrase.end, words: merged }];
    });
  });
}

/** Words a suggestion may add after the reader's: a phrase that reads alone and says something new. */
function addable(line: Line, from: number, to: number, own: Word[]): Word[] | undefined {
  const added = line.list.slice(from, to);
  const ownKeys = new Set(own.map(key));
  if (added.length === 0 || added.length > MAX_ATTACHED_WORDS) return undefined;
  if (!added.some(isContent) || added.some((w) => ownKeys.has(key(w)))) return undefined;
  return added.map((_, i) => asWritten(line, from + i));
}

/**
 * A prepositional phrase after the reader's last phrase, taken from a line where the same phrase
 * (its words in order, same head) is followed by one: "smart contracts for reentrancy".
 */
function attached(own: Word[], phrase: NounPhrase, line: Line): Edit[] {
  if (phrase.end !== own.length) return [];
  const mine = body(own, phrase);
  return line.phrases.flatMap((other) => {
    const positions = positionsIn(mine, body(line.list, other));
    if (!positions || key(other.head) !== key(phrase.head)) return [];
    const end = withAttachment(line.list, other, line.phrases);
    const object = line.phrases.find((p) => p.start === other.end + 1);
    if (end === other.end || !object || !standsAlone(object)) return [];
    const added = addable(line, other.end, end, own);
    return added ? [{ start: own.length, end: own.length, words: added }] : [];
  });
}

/** An object after a verb that ends the descriptor: "build" -> "build developer tools". */
function objected(own: Word[], line: Line): Edit[] {
  const verb = own.at(-1);
  if (!verb || verb.pos !== 'VERB') return [];
  return line.list.flatMap((w, i) => {
    const object = line.phrases.find((p) => p.start === i + 1);
    if (key(w) !== key(verb) || !object || !standsAlone(object)) return [];
    const added = addable(line, object.start, object.end, own);
    return added ? [{ start: own.length, end: own.length, words: added }] : [];
  });
}

/**
 * Up to three suggestions from the given background lines (closest first). The descriptor is read
 * after its sentence starter ("I am one of those who"), which tells "vote" the verb from the noun.
 */
export function moreSpecific(descriptor: string, starter: string, closest: number[]): string[] {
  const tidy = descriptor
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.,;:!]+$/, '');
  const context = starter.replace(/\s+/g, ' ').trim();
  const before = context ? words(context) : [];
  const own = words(`${context} ${tidy}`).slice(before.length);
  // Taggers read a verb after "who" as a noun ("who audit smart contracts"); grammar says verb.
  if (own[0]?.pos === 'NOUN' && SUBJECTS.has(before.at(-1)?.lower ?? '')) {
    own[0] = { ...own[0], pos: 'VERB' };
  }
  const phrases = nounPhrases(own);
  const found: string[] = [];
  for (const index of closest) {
    const line = backgroundLines()[index]!;
    const edits = [
      ...phrases.flatMap((phrase) => modified(own, phrase, line)),
      ...phrases.flatMap((phrase) => attached(own, phrase, line)),
      ...objected(own, line),
    ];
    for (const edit of edits) {
      const suggestion = apply(own, edit);
      if (suggestion.length <= MAX_CHARS && !found.includes(suggestion)) found.push(suggestion);
    }
    if (found.length >= MAX_SUGGESTIONS) break;
  }
  return found.slice(0, MAX_SUGGESTIONS);
}

/** Words in an example's topic: one word is rarely a topic, more read as a headline. */
const TOPIC_WORDS = { min: 2, max: 3 };
/** How specific (0..1) each of a topic's words must be: the domain's broad words are no focus. */
const MIN_TOPIC_SPECIFICITY = 0.75;

/**
 * Concrete clues for a descriptor that nothing in it can make more specific: the reader's words
 * with a focus the closest background lines name ("lending on Ethereum" -> "lending on Ethereum
 * with a focus on liquidation thresholds"), one per line, closest first. A focus is the line's
 * most specific noun phrase after its subject (a headline's subject is who acts, and taggers
 * misread its verb), of words the descriptor lacks, that reads alone.
 */
export function concreteExamples(
  descriptor: string,
  closest: number[],
  specificity: (stem: string) => number,
): string[] {
  const tidy = descriptor
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.,;:!]+$/, '');
  const own = new Set(words(tidy).map(key));
  const stemsOf = (topic: Word[]) => topic.flatMap((w) => w.stems);
  const weight = (topic: Word[]) => stemsOf(topic).reduce((s, stem) => s + specificity(stem), 0);
  const found: string[] = [];
  for (const index of closest) {
    const line = backgroundLines()[index]!;
    const [focus] = line.phrases
      .slice(1)
      .map((phrase) => ({ phrase, topic: body(line.list, phrase) }))
      .filter(
        ({ phrase, topic }) =>
          !phrase.determiner &&
          topic.length >= TOPIC_WORDS.min &&
          topic.length <= TOPIC_WORDS.max &&
          topic.every((w) => isContent(w) && !own.has(key(w)) && !w.possessive) &&
          stemsOf(topic).every((stem) => specificity(stem) >= MIN_TOPIC_SPECIFICITY) &&
          standsAlone(phrase),
      )
      .sort((a, b) => weight(b.topic) - weight(a.topic));
    if (!focus) continue;
    const from = focus.phrase.start;
    const topic = focus.topic.map((_, i) => asWritten(line, from + i));
    const example = `${tidy} with a focus on ${spell(topic)}`;
    if (example.length <= MAX_CHARS && !found.includes(example)) found.push(example);
    if (found.length >= MAX_SUGGESTIONS) break;
  }
  return found;
}
