// CorpusStats: the local ranker's term statistics of the newest articles, one snapshot item that
// the 'refresh-corpus' job rewrites after imports (docs/decisions/0031-local-ranker-corpus.md).
import { defineEntity } from '#core/db';

export const CorpusStatsEntity = defineEntity({
  model: { entity: 'corpusStats', version: '1', service: 'cluefeed' },
  attributes: {
    /** The statistics as gzip'd JSON in base64 (local/corpus.ts), well under the 400 KB item limit. */
    stats: { type: 'string', required: true },
    /** SHA-256 of `stats`: what a refresh compares and conditions its write on. */
    hash: { type: 'string', required: true },
    documents: { type: 'number', required: true },
    stems: { type: 'number', required: true },
    builtAt: { type: 'string', required: true },
  },
  indexes: {
    // The one snapshot: pk corpusStats, sk corpusStats
    snapshot: {
      pk: { field: 'pk', composite: [], template: 'corpusStats', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'corpusStats', casing: 'none' },
    },
  },
});
