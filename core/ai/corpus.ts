// Where the local ranker's corpus lives: one snapshot item of the newest articles' term
// statistics. `refreshCorpus` rebuilds it (the 'refresh-corpus' job after an import, and the seed);
// `storedCorpus` is the local provider's default loader, read at most once a minute per process.
import { createHash } from 'node:crypto';
import { isConditionFailure } from '#core/db';
import { config } from '#core/config';
import { CorpusStatsEntity } from './corpus-entity';
import {
  buildCorpus,
  parseCorpus,
  serialiseCorpus,
  type Corpus,
  type CorpusDocument,
} from './local/corpus';
import { wordVectors } from './local/vectors';

export type CorpusSnapshot = {
  corpus: Corpus;
  hash: string;
  documents: number;
  stems: number;
  builtAt: string;
};

/** The stored snapshot, if any. */
export async function corpusSnapshot(): Promise<CorpusSnapshot | undefined> {
  const { data } = await CorpusStatsEntity.get({}).go();
  if (!data) return undefined;
  const { stats, ...rest } = data;
  return { corpus: parseCorpus(stats), ...rest };
}

export type RefreshOutcome = 'saved' | 'unchanged' | 'kept' | 'superseded';

/**
 * Learns the statistics of `documents` and stores them. The same documents give the same bytes,
 * so a repeated run writes nothing ('unchanged'); `onlyIfMissing` (the seed) leaves any snapshot
 * be ('kept'). The write is conditioned on the snapshot read before building: a refresh that
 * another one overtook meanwhile leaves the newer snapshot be ('superseded'). One item is written
 * whole, so a run that stops before it leaves the old one.
 */
export async function refreshCorpus(
  documents: CorpusDocument[],
  { onlyIfMissing = false }: { onlyIfMissing?: boolean } = {},
): Promise<RefreshOutcome> {
  const [{ data: current }, vectors] = await Promise.all([
    CorpusStatsEntity.get({}).go({ consistent: true, attributes: ['hash'] }),
    wordVectors(),
  ]);
  if (current && onlyIfMissing) return 'kept';
  const corpus = buildCorpus(documents, vectors);
  const stats = serialiseCorpus(corpus);
  const hash = createHash('sha256').update(stats).digest('hex');
  if (current?.hash === hash) return 'unchanged';
  try {
    await CorpusStatsEntity.put({
      stats,
      hash,
      documents: corpus.documents,
      stems: corpus.df.size,
      builtAt: new Date().toISOString(),
    })
      .where((attr, op) => (current ? op.eq(attr.hash, current.hash) : op.notExists(attr.hash)))
      .go();
    return 'saved';
  } catch (error) {
    if (isConditionFailure(error)) return 'superseded';
    throw error;
  }
}

/** How long a process keeps the snapshot it read: a refresh reaches every process within it. */
export const CORPUS_CACHE_MS = 60_000;

/** The snapshot last read, and the table it was read from (tests point a process at several). */
let cached: { table: string; at: number; corpus: Promise<Corpus | undefined> } | undefined;

/** The stored corpus through a short in-process cache (undefined while none is stored). */
export function storedCorpus(): Promise<Corpus | undefined> {
  const now = Date.now();
  const table = config().TABLE_NAME;
  if (!cached || cached.table !== table || now - cached.at >= CORPUS_CACHE_MS) {
    const corpus = corpusSnapshot().then((snapshot) => snapshot?.corpus);
    // A failed read is not kept: the next call tries again.
    corpus.catch(() => {
      if (cached?.corpus === corpus) cached = undefined;
    });
    cached = { table, at: now, corpus };
  }
  return cached.corpus;
}
