// A corpus's term statistics: what the local ranker knows about the product's own articles. How
// many documents there are and in how many each stem occurs (so a word's weight reflects how rare
// it is in the news the product imports), how often each category and source occurs (so a
// reader's taste for one can be told from its popularity), and the centroid of the documents'
// word vectors (the direction every article of this corpus shares). Pure: built from texts,
// serialised compactly, read back; where it is kept is ../corpus.ts.
import { gunzipSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { learnProfiles, TOPIC_COUNT, type Profile } from './domain';
import { terms } from './text';
import { rawTextVector, type WordVectors } from './vectors';

export type CorpusDocument = { title: string; summary: string; category?: string; source?: string };

export const FACET_KINDS = ['category', 'source'] as const;
export type FacetKind = (typeof FACET_KINDS)[number];

export type Corpus = {
  documents: number;
  /** Documents per stem. */
  df: ReadonlyMap<string, number>;
  /** The count assumed for a stem not listed: 1 when stems seen once were dropped, else 0. */
  unlisted: number;
  /** Documents per category and per source (normalised, see facetKey). */
  facets: Record<FacetKind, ReadonlyMap<string, number>>;
  centroid: readonly number[];
  /** Topic profiles learned for names the field's lexicon lacks (domain.ts). */
  profiles: ReadonlyMap<string, Profile>;
};

/** Stems kept at most, the most frequent first: the serialised snapshot stays far below 400 KB. */
export const MAX_STEMS = 30_000;
/** Category and source values kept at most per kind. */
export const MAX_FACETS = 500;
/** Fewer documents than this say more about their own topics than about a common direction. */
const MIN_CENTROID_DOCUMENTS = 20;

/** How a category or source is compared: case, spaces and punctuation do not count. */
export const facetKey = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Inverse document frequency, BM25's form: rare stems weigh most, and a stem in every document
 * still weighs a little. A stem the corpus never saw counts as the rarest.
 */
export function idf(corpus: Corpus, stem: string): number {
  const df = corpus.df.get(stem) ?? corpus.unlisted;
  return Math.log(1 + (corpus.documents - df + 0.5) / (df + 0.5));
}

/** The stems of a document: its title's and summary's content words, each once. */
export const documentTerms = (doc: Pick<CorpusDocument, 'title' | 'summary'>) => [
  ...terms(doc.title),
  ...terms(doc.summary),
];

function counted(values: Iterable<string>, limit: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return new Map([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit));
}

/**
 * Learns the statistics of `documents`. `dropRare` leaves out stems seen in one document only (most
 * of a large corpus's vocabulary, and useless for telling documents apart); a corpus made of one
 * request's own few texts keeps them.
 */
export function buildCorpus(
  documents: CorpusDocument[],
  vectors: WordVectors,
  { dropRare = true }: { dropRare?: boolean } = {},
): Corpus {
  const analysed = documents.map(documentTerms);
  const all = counted(
    analysed.flatMap((list) => [...new Set(list.map((term) => term.stem))]),
    Infinity,
  );
  const kept = [...all].filter(([, df]) => !dropRare || df > 1).slice(0, MAX_STEMS);
  const facetsOf = (kind: FacetKind) =>
    counted(
      documents.flatMap((doc) => (doc[kind] ? [facetKey(doc[kind])] : [])).filter(Boolean),
      MAX_FACETS,
    );
  const facets = { category: facetsOf('category'), source: facetsOf('source') };
  const stats: Corpus = {
    documents: documents.length,
    df: new Map(kept),
    unlisted: kept.length < all.size ? 1 : 0,
    facets,
    centroid: [],
    profiles: new Map(),
  };
  // The centroid of the documents' unit vectors, with word weights from the statistics above;
  // the general one of running text for a handful of documents.
  const sum = new Array<number>(vectors.dimensions).fill(0);
  let known = 0;
  for (const list of analysed) {
    const vector = rawTextVector(vectors, list, (stem) => idf(stats, stem));
    if (!vector.some((x) => x !== 0)) continue;
    known++;
    vector.forEach((x, d) => (sum[d]! += x));
  }
  const centroid =
    known >= MIN_CENTROID_DOCUMENTS ? sum.map((x) => round(x / known)) : [...vectors.centroid];
  const profiles = learnProfiles(analysed, (stem) => idf(stats, stem));
  return { ...stats, centroid, profiles };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

const Counts = v.array(v.tuple([v.string(), v.pipe(v.number(), v.integer(), v.minValue(1))]));
/** A learned profile as [topic index, weight] pairs: its few non-zero topics. */
const Profiles = v.array(
  v.tuple([
    v.string(),
    v.array(
      v.tuple([
        v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(TOPIC_COUNT - 1)),
        v.number(),
      ]),
    ),
  ]),
);
const Serialised = v.object({
  // Version 1 snapshots were written before topic profiles; they read as having none.
  version: v.picklist([1, 2]),
  documents: v.pipe(v.number(), v.integer(), v.minValue(0)),
  unlisted: v.picklist([0, 1]),
  df: Counts,
  facets: v.object({ category: Counts, source: Counts }),
  centroid: v.array(v.number()),
  profiles: v.optional(Profiles, []),
});

/** The corpus as gzip'd JSON in base64: the same statistics always give the same text. */
export function serialiseCorpus(corpus: Corpus): string {
  const json: v.InferOutput<typeof Serialised> = {
    version: 2,
    documents: corpus.documents,
    unlisted: corpus.unlisted as 0 | 1,
    df: [...corpus.df],
    facets: { category: [...corpus.facets.category], source: [...corpus.facets.source] },
    centroid: [...corpus.centroid],
    profiles: [...corpus.profiles].map(([stem, profile]) => [
      stem,
      [...profile.keys()].filter((t) => profile[t]! > 0).map((t) => [t, round(profile[t]!)]),
    ]),
  };
  return gzipSync(JSON.stringify(json), { level: 9 }).toString('base64');
}

/** Reads what serialiseCorpus wrote; throws on anything else. */
export function parseCorpus(text: string): Corpus {
  const json = v.parse(Serialised, JSON.parse(gunzipSync(Buffer.from(text, 'base64')).toString()));
  return {
    documents: json.documents,
    df: new Map(json.df),
    unlisted: json.unlisted,
    facets: { category: new Map(json.facets.category), source: new Map(json.facets.source) },
    centroid: json.centroid,
    profiles: new Map(
      json.profiles.map(([stem, pairs]) => {
        const profile = new Float32Array(TOPIC_COUNT);
        for (const [t, weight] of pairs) profile[t] = weight;
        return [stem, profile];
      }),
    ),
  };
}
