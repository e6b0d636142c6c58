// Text to terms with wink-nlp's English model: tokenising, part-of-speech tags, stop words and
// Porter stems. Everything the local provider knows about words comes from here.
import winkNLP, { type ItemToken, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** A content word of a text: its stem (what is matched), its surface form and its part of speech. */
export type Term = { stem: string; word: string; pos: string };

let nlp: WinkMethods | undefined;

/** The model takes ~0.4 s to load, so it loads on first use, once per process. */
export function wink(): WinkMethods {
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  return nlp;
}

/** Words that only say how a reader relates to a topic ("I build ...", "I love ..."), not which. */
const RELATION_WORDS = new Set([
  'i',
  'am',
  'me',
  'my',
  'one',
  'those',
  'who',
  'people',
  'someone',
  'person',
  'interested',
  'interest',
  'love',
  'like',
  'enjoy',
  'follow',
  'want',
  'care',
  'thing',
  'stuff',
  'lot',
  'really',
]);

const WORDLIKE = /[a-z0-9]/;

/** The content words of a text, in order: no stop words, punctuation or relation words. */
export function terms(text: string): Term[] {
  const { its } = wink();
  const doc = wink().readDoc(text);
  const out: Term[] = [];
  doc.tokens().each((token: ItemToken) => {
    const type = token.out(its.type);
    if (type !== 'word' && type !== 'number') return;
    if (token.out(its.stopWordFlag)) return;
    const word = token.out(its.normal).replace(/^['’]+|['’]+$/g, '');
    if (word.length < 2 || !WORDLIKE.test(word) || RELATION_WORDS.has(word)) return;
    // wink's types miss that its.stem takes the model's addons; it works as documented.
    const stem = token.out(its.stem as unknown as typeof its.normal);
    out.push({ stem, word, pos: token.out(its.pos) });
  });
  return out;
}

/** How much a word of this part of speech says about a topic: nouns and names most, verbs less. */
export function topicWeight(pos: string): number {
  switch (pos) {
    case 'NOUN':
    case 'PROPN':
    case 'NUM':
    case 'X':
      return 1;
    case 'ADJ':
      return 0.7;
    case 'VERB':
      return 0.4;
    default:
      return 0.3;
  }
}

/**
 * Keyphrases: runs of adjectives and nouns ending in a noun ("generative art", "fault proofs"),
 * longest first, each once. Their words are surface forms, fit to show in a sentence.
 */
export function keyphrases(text: string): string[] {
  const { its } = wink();
  const doc = wink().readDoc(text);
  const phrases: string[] = [];
  let run: { word: string; pos: string }[] = [];
  const close = () => {
    while (run.length > 0 && run[run.length - 1]!.pos === 'ADJ') run.pop();
    if (run.length > 0) phrases.push(run.map((t) => t.word).join(' '));
    run = [];
  };
  doc.tokens().each((token: ItemToken) => {
    const pos = token.out(its.pos);
    const word = token.out(its.normal);
    const content = ['ADJ', 'NOUN', 'PROPN'].includes(pos) && !token.out(its.stopWordFlag);
    if (content && WORDLIKE.test(word) && !RELATION_WORDS.has(word)) run.push({ word, pos });
    else close();
  });
  close();
  const seen = new Set<string>();
  return phrases
    .sort((a, b) => b.split(' ').length - a.split(' ').length)
    .filter((phrase) => !seen.has(phrase) && seen.add(phrase));
}

/** Adjacent content-word stem pairs, for phrase matches ("generative art" beats "art" alone). */
export function bigrams(list: Term[]): string[] {
  return list.slice(1).map((term, i) => `${list[i]!.stem} ${term.stem}`);
}

/** A text's topics: the stems of its nouns and names, each once ("Restaking yields fall" → restak, yield). */
export function topicsOf(text: string): string[] {
  return [
    ...new Set(
      terms(text)
        .filter((term) => topicWeight(term.pos) >= 1)
        .map((t) => t.stem),
    ),
  ];
}
