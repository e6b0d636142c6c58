// What a reader does not want, matched against stories (ADR 0045): how strongly a story is about
// a phrase the reader muted ("Solana", "DAO treasury"), and how close two stories are (a disliked
// story's neighbours: the same event told by another source, the same topic). Built on the local
// provider's word tools: stems (text.ts), rarity in the product's articles (corpus.ts) and word
// vectors (vectors.ts), so a better ranker's vectors and statistics flow in here too.
import { idf, type Corpus } from './corpus';
import { terms, type Term } from './text';
import { cosine, textVector, wordVectors, type WordVectors } from './vectors';

export type StoryText = { title: string; summary?: string; source?: string; content?: string };

/** A story read once for every preference it is matched against. */
export type ReadStory = {
  /** Stems of its title and source: naming a muted thing there is naming what it is about. */
  headline: Set<string>;
  /** Stems of its summary. */
  summary: Set<string>;
  /** Stems of its title and summary: what it tells, whoever tells it. */
  told: Set<string>;
  /** Its body, lower case, for counting mentions (never analysed word by word: bodies are long). */
  body: string;
  vector: Float64Array;
  known: number;
};

/** A muted phrase, read once. */
export type ReadPhrase = {
  /** Each content word once: its stem, how rare it is, and a pattern counting its mentions. */
  stems: { stem: string; weight: number; mention: RegExp }[];
  vector: Float64Array;
  known: number;
};

/** Words that say what kind of item a request is about, not which ("Solana stories", "news on"). */
const GENERIC_WORDS = new Set([
  'story',
  'stories',
  'news',
  'article',
  'articles',
  'post',
  'posts',
  'content',
  'piece',
  'pieces',
  'item',
  'items',
  'update',
  'updates',
  'topic',
  'topics',
  'coverage',
  'anything',
  'everything',
  'more',
  'less',
  'please',
  'showing',
  'show',
  'stop',
]);

/** A body that mentions a muted word this often is about it, even if its title is not. */
const BODY_MENTIONS = 2;
/** How much each place of a story counts when it names a muted word. */
const IN_HEADLINE = 1;
const IN_SUMMARY = 0.85;
const IN_BODY = 0.7;
/**
 * Topic closeness alone counts weakly: from nothing at LOW to TOPIC_MAX at HIGH, below what a
 * named word gives, so a story close in topic sinks but is not treated as named.
 */
const TOPIC_LOW = 0.35;
const TOPIC_HIGH = 0.75;
const TOPIC_MAX = 0.5;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A stem with a plural s the stemmer kept (names: "NFTs", "DAOs") compared without it. */
const keyOf = (stem: string) => (stem.length > 3 && /[^s]s$/.test(stem) ? stem.slice(0, -1) : stem);

/** The part of a word its other forms share: its stem where that is a prefix, else the word less a plural s. */
function prefixOf(term: Term): string {
  const key = keyOf(term.stem);
  if (term.word.startsWith(key) && key.length >= 3) return key;
  return term.word.replace(/s$/, '');
}

/** Stories kept read between builds, by article id: a reader's rebuilds read the same stories. */
const READ_KEPT = 5_000;
type Analysed = Omit<ReadStory, 'body'>;
let kept: { weights: string; stories: Map<string, Analysed> } = { weights: '', stories: new Map() };

/** The stories read with these word weights (a corpus of another size weighs words anew). */
function keptFor(weights: string): Map<string, Analysed> {
  if (kept.weights !== weights) kept = { weights, stories: new Map() };
  return kept.stories;
}

export type Matching = {
  /** A story read; with a `key` (its article id), read once per process while kept. */
  story(text: StoryText, key?: string): ReadStory;
  phrase(text: string): ReadPhrase;
  /** How strongly a story is about the phrase: 0 not at all, 1 it names it in its headline. */
  strength(phrase: ReadPhrase, story: ReadStory): number;
  /** How close two stories are: near 1 for the same event, lower for the same topic. */
  closeness(a: ReadStory, b: ReadStory): number;
};

/**
 * The matcher, with word weights from `corpus` (rare words weigh most) when there is one, and the
 * word vectors, loaded once per process.
 */
export async function negativeMatching(corpus?: Corpus): Promise<Matching> {
  const vectors: WordVectors = await wordVectors();
  const weight = (stem: string) => (corpus && corpus.documents > 0 ? idf(corpus, stem) : 1);
  const centroid = corpus?.centroid.length ? corpus.centroid : vectors.centroid;
  const vectorOf = (list: Term[]) => textVector(vectors, list, weight, centroid);
  const stories = keptFor(corpus ? `${corpus.documents}/${corpus.df.size}` : 'none');
  const sources = new Map<string, Set<string>>();
  const stems = (list: Term[]) => new Set(list.map((term) => keyOf(term.stem)));

  function analyse({ title, summary = '', source = '' }: StoryText): Analysed {
    const titled = terms(title);
    const described = terms(summary);
    let named = sources.get(source);
    if (!named) sources.set(source, (named = stems(terms(source))));
    const { vector, known } = vectorOf([...titled, ...described]);
    return {
      headline: new Set([...stems(titled), ...named]),
      summary: stems(described),
      told: stems([...titled, ...described]),
      vector,
      known,
    };
  }

  return {
    story(text, key) {
      let read = key === undefined ? undefined : stories.get(key);
      if (!read) {
        read = analyse(text);
        if (key !== undefined) {
          if (stories.size >= READ_KEPT) stories.delete(stories.keys().next().value!);
          stories.set(key, read);
        }
      }
      return { ...read, body: (text.content ?? '').toLowerCase() };
    },

    phrase(text) {
      const list = terms(text).filter((term) => !GENERIC_WORDS.has(term.word));
      const { vector, known } = vectorOf(list);
      const seen = new Set<string>();
      const words = list
        .filter((term) => !seen.has(keyOf(term.stem)) && !!seen.add(keyOf(term.stem)))
        .map((term) => ({
          stem: keyOf(term.stem),
          weight: weight(term.stem),
          mention: new RegExp(`\\b${escape(prefixOf(term))}`, 'g'),
        }));
      return { stems: words, vector, known };
    },

    strength(phrase, story) {
      const total = phrase.stems.reduce((sum, { weight: w }) => sum + w, 0);
      if (total === 0) return 0;
      let named = 0;
      for (const { stem, weight: w, mention } of phrase.stems) {
        if (story.headline.has(stem)) named += w * IN_HEADLINE;
        else if (story.summary.has(stem)) named += w * IN_SUMMARY;
        else if ((story.body.match(mention)?.length ?? 0) >= BODY_MENTIONS) named += w * IN_BODY;
      }
      const lexical = named / total;
      if (phrase.known === 0 || story.known === 0) return lexical;
      const closeness = cosine(phrase.vector, story.vector);
      const topic =
        Math.min(1, Math.max(0, (closeness - TOPIC_LOW) / (TOPIC_HIGH - TOPIC_LOW))) * TOPIC_MAX;
      return Math.max(lexical, topic);
    },

    closeness(a, b) {
      const left = a.told;
      const right = b.told;
      const sum = (set: Iterable<string>) => [...set].reduce((total, s) => total + weight(s), 0);
      const shared = sum([...left].filter((stem) => right.has(stem)));
      const overlap = left.size && right.size ? (2 * shared) / (sum(left) + sum(right)) : 0;
      const vectors = a.known > 0 && b.known > 0 ? cosine(a.vector, b.vector) : 0;
      return (overlap + Math.max(0, vectors)) / 2;
    },
  };
}
