// Phrases as a reader writes them: the words of a text with their parts of speech, the noun
// phrases among them ("a reentrancy bug in a lending market") and a clue turned to the second
// person ("I build DeFi protocols" -> "you build DeFi protocols"). The local provider's sentences
// (reasons, suggestions) are built from these, so what it writes stays grammatical.
import type { Document, ItemToken } from 'wink-nlp';
import { wink } from './text';

let vocabulary: Document | undefined;

/** The model's vocabulary, asked through an empty document (wink answers lexicon look-ups there). */
function lexicon(): Document {
  vocabulary ??= wink().readDoc('');
  return vocabulary;
}

/**
 * A word as written, with its part of speech. Hyphenated compounds ("on-chain", "layer-2") and
 * possessives ("Lido's") are one word, as a reader sees them.
 */
export type Word = {
  text: string;
  lower: string;
  pos: string;
  /** Porter stems of its parts, as `terms` gives them. */
  stems: string[];
  plural: boolean;
  possessive: boolean;
  /** Whether a space comes before it in the text. */
  spaced: boolean;
};

type Token = { text: string; pos: string; stem: string; lemma: string; spaced: boolean };

const WORDLIKE = /[\p{L}\p{N}]/u;
const POSSESSIVE = /^['’]s$/i;

function tokensOf(text: string): Token[] {
  const { its } = wink();
  const tokens: Token[] = [];
  wink()
    .readDoc(text)
    .tokens()
    .each((token: ItemToken) => {
      tokens.push({
        text: token.out(),
        pos: token.out(its.pos),
        // wink's types miss that its.stem and its.lemma take the model's addons; they work.
        stem: token.out(its.stem as unknown as typeof its.normal),
        lemma: token.out(its.lemma as unknown as typeof its.normal),
        spaced: token.out(its.precedingSpaces) !== '',
      });
    });
  return tokens;
}

/** Whether the model's own vocabulary has the word (wink adds every word it reads to its cache). */
export const isKnown = (word: string) => !lexicon().isOOV(word);

/**
 * Plural by its lemma, by a known singular ("Curators": "curator"), or, for words the model does
 * not know ("rollups"), by its ending.
 */
function isPlural(token: Token): boolean {
  const lower = token.text.toLowerCase();
  if (!/s$/.test(lower) || /(ss|us|is)$/.test(lower) || lower.length < 4) return false;
  return (
    token.lemma !== lower ||
    isKnown(lower.slice(0, -1)) ||
    (lower.endsWith('es') && isKnown(lower.slice(0, -2))) ||
    !isKnown(lower)
  );
}

/** "on-chain", "real-world" modify like adjectives; "zero-knowledge" is a noun like its last part. */
function compoundPos(first: Token, last: Token): string {
  if (first.pos === 'ADP' || first.pos === 'ADJ') return 'ADJ';
  if (last.pos === 'VERB' && /ed$/i.test(last.text)) return 'ADJ';
  return last.pos;
}

function word(token: Token): Word {
  return {
    text: token.text,
    lower: token.text.toLowerCase(),
    pos: token.pos,
    stems: WORDLIKE.test(token.text) ? [token.stem] : [],
    plural: isPlural(token),
    possessive: false,
    spaced: token.spaced,
  };
}

export function words(text: string): Word[] {
  const tokens = tokensOf(text);
  const out: Word[] = [];
  const firstOf = new Map<Word, Token>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = out.at(-1);
    const next = tokens[i + 1];
    const joinsNext = next && !next.spaced && WORDLIKE.test(next.text);
    if (previous && token.text === '-' && !token.spaced && joinsNext) {
      const compound: Word = {
        ...previous,
        text: `${previous.text}-${next.text}`,
        lower: `${previous.lower}-${next.text.toLowerCase()}`,
        pos: compoundPos(firstOf.get(previous)!, next),
        stems: [...previous.stems, next.stem],
        plural: isPlural(next),
      };
      firstOf.set(compound, firstOf.get(previous)!);
      out[out.length - 1] = compound;
      i++;
    } else if (previous && POSSESSIVE.test(token.text) && !token.spaced) {
      out[out.length - 1] = {
        ...previous,
        text: previous.text + token.text,
        lower: previous.lower + token.text.toLowerCase(),
        possessive: true,
      };
      firstOf.set(out[out.length - 1]!, firstOf.get(previous)!);
    } else {
      const made = word(token);
      firstOf.set(made, token);
      out.push(made);
    }
  }
  return out;
}

/** The text of consecutive words, spaced as written. */
export function spell(list: Word[]): string {
  return list.map((w, i) => (i > 0 && w.spaced ? ` ${w.text}` : w.text)).join('');
}

const NOUNISH = new Set(['NOUN', 'PROPN']);
const MODIFIER = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);
/** Prepositions that attach a noun phrase to a noun ("bug in a lending market"). */
const PREPOSITIONS = new Set([
  'of',
  'in',
  'on',
  'for',
  'with',
  'across',
  'behind',
  'from',
  'about',
  'through',
]);

/** Determiners a phrase keeps; others ("which", "what", "any") are left out of it. */
const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'every',
  'each',
  'this',
  'that',
  'these',
  'those',
  'some',
  'several',
  'many',
  'both',
  'all',
  'another',
]);

/** A noun phrase: words[start, end) of a text, its determiner (if any) and its head noun. */
export type NounPhrase = { start: number; end: number; determiner?: Word; head: Word };

/** A modifier inside a phrase: "staking" in "community staking module" is tagged a verb. */
const modifies = (w: Word) =>
  MODIFIER.has(w.pos) || (w.pos === 'VERB' && /(ing|ed)$/i.test(w.text) && !w.possessive);

/**
 * Noun phrases, left to right: an optional determiner, modifiers, and a noun (or a number after a
 * noun, "stage 1") at the end. A possessive ("Lido's") modifies; it never ends a phrase; a plural
 * noun ends one.
 */
export function nounPhrases(list: Word[]): NounPhrase[] {
  const phrases: NounPhrase[] = [];
  let i = 0;
  while (i < list.length) {
    const start = i;
    const determiner = DETERMINERS.has(list[i]!.lower) ? list[i] : undefined;
    let j = determiner ? i + 1 : i;
    let verbAfter = false;
    while (j < list.length && modifies(list[j]!)) {
      j++;
      // A plural noun does not modify ("auditors review contracts"): it ends the phrase, and a
      // noun-looking word after it is the verb a tagger misread in a headline.
      const w = list[j - 1]!;
      if (w.plural && NOUNISH.has(w.pos) && !w.possessive && list[j] && modifies(list[j]!)) {
        verbAfter = true;
        break;
      }
    }
    let end = j;
    const endsWell = (k: number) => {
      const last = list[k - 1]!;
      if (last.possessive) return false;
      if (NOUNISH.has(last.pos)) return true;
      return last.pos === 'NUM' && k - 2 >= start && NOUNISH.has(list[k - 2]!.pos);
    };
    while (end > (determiner ? start + 1 : start) && !endsWell(end)) end--;
    if (end > (determiner ? start + 1 : start)) {
      phrases.push({ start, end, determiner, head: list[end - 1]! });
      i = verbAfter && end === j ? end + 1 : end;
    } else {
      i = Math.max(j, start + 1);
    }
  }
  return phrases;
}

/** A phrase with the prepositional phrase that follows it, if one does ("a bug in a market"). */
export function withAttachment(list: Word[], phrase: NounPhrase, phrases: NounPhrase[]): number {
  const preposition = list[phrase.end];
  if (!preposition || preposition.pos !== 'ADP' || !PREPOSITIONS.has(preposition.lower)) {
    return phrase.end;
  }
  const object = phrases.find((p) => p.start === phrase.end + 1);
  return object ? object.end : phrase.end;
}

/** Uncountable heads read well without an article: "it covers DeFi lending", "...data availability". */
const MASS_ENDING = /(ing|ance|ence|ity|ism|ment|ness|ship|ics|ure|cy|ty)$/;
const MASS_NOUNS = new Set([
  'art',
  'code',
  'crypto',
  'data',
  'defi',
  'evidence',
  'funding',
  'governance',
  'information',
  'liquidity',
  'money',
  'news',
  'research',
  'software',
  'tooling',
  'work',
]);

/** Whether a phrase can stand as an object as it is, or needs an article ("the lending market"). */
export function standsAlone(phrase: NounPhrase): boolean {
  const head = phrase.head;
  return (
    phrase.determiner !== undefined ||
    head.pos === 'PROPN' ||
    head.pos === 'NUM' ||
    head.plural ||
    MASS_NOUNS.has(head.lower) ||
    MASS_ENDING.test(head.lower)
  );
}

/** Endings of derived English words the model may not know ("upgradeable"), unlike names'. */
const ENGLISH_ENDING = /(able|ible|ing|ed|tion|sion|ment|ness|ity|ful|less|ous|ive|ise|ize)$/;

/**
 * A headline's first word is capitalised whether or not it is a name. It is lower-cased when the
 * model knows it as a word ("Security researchers" -> "security researchers"), it has the ending
 * of a derived word, or the text uses it in lower case elsewhere, unless it looks like part of a name: possessive ("Lido's") or followed
 * by another capitalised word ("Lumen Labs").
 */
export function sentenceCase(list: Word[], text: string): string {
  const [first, next] = list;
  if (!first) return '';
  if (!/^\p{Lu}[\p{Ll}\d'’-]*$/u.test(first.text)) return first.text;
  if (first.possessive || (next && /^\p{Lu}\p{Ll}/u.test(next.text))) return first.text;
  const root = first.lower.split('-')[0]!;
  const derived = ENGLISH_ENDING.test(root);
  const escaped = first.lower.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const usedLower = new RegExp(`(^|[^\\p{L}])${escaped}([^\\p{L}]|$)`, 'u').test(text);
  return isKnown(root) || derived || usedLower ? first.lower : first.text;
}

const FIRST_PERSON: [RegExp, string][] = [
  [/\bI'm\b/g, "you're"],
  [/\bI’m\b/g, 'you’re'],
  [/\bI am\b/g, 'you are'],
  [/\bI was\b/g, 'you were'],
  [/\bI(['’](?:ve|d|ll))\b/g, 'you$1'],
  [/\bI\b/g, 'you'],
  [/\bmyself\b/gi, 'yourself'],
  [/\bmine\b/gi, 'yours'],
  [/\bmy\b/gi, 'your'],
  [/\bme\b/gi, 'you'],
];

/** "I am one of those who build ...", "those who build ...": the clue is what follows. */
const THOSE_WHO = /^(?:(?:I am|I'm|I’m)\s+)?(?:one of )?(?:those|someone|people|a person) who\s+/i;

/**
 * A clue as the second half of "because you ...": first-person sentences and audience titles
 * ("audit smart contracts", which complete "I am one of those who") read as what the reader
 * does; anything else (a topic, a headline) as what the reader follows.
 */
export function inSecondPerson(clue: string): string {
  const tidy = clue
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.,;:!]+$/, '');
  const rest = tidy.replace(THOSE_WHO, '');
  if (rest !== tidy) return `you ${rest}`;
  if (/^I\b/.test(rest)) {
    return FIRST_PERSON.reduce((text, [pattern, replace]) => text.replace(pattern, replace), rest);
  }
  const [first, second] = words(`you ${rest}`).slice(1);
  const verb = first && (first.pos === 'VERB' || first.pos === 'AUX');
  // Taggers often read a title's leading verb as a noun ("steward DAO governance").
  const titleVerb =
    first?.pos === 'NOUN' &&
    /^\p{Ll}/u.test(first.text) &&
    second !== undefined &&
    ['ADJ', 'PROPN', 'DET', 'NUM'].includes(second.pos);
  return verb || titleVerb ? `you ${rest}` : `you follow ${rest}`;
}
