// SentenceStarter: a phrase the funnel offers to begin a clue ("I build"), with its pointers (the
// follow-on phrases, each with examples). Pointers live inside their starter: they are always read
// together, a starter has a handful, and the list is small enough to read in one query.
import { defineEntity } from '#core/db';

export const SentenceStarterEntity = defineEntity({
  model: { entity: 'sentenceStarter', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** Position in the funnel's list, smallest first. */
    ordering: { type: 'number', required: true },
    pointers: {
      type: 'list',
      default: () => [],
      items: {
        type: 'map',
        properties: {
          /** Unset on the pointer that carries the examples of the 'Add your own' option. */
          name: { type: 'string' },
          ordering: { type: 'number', required: true },
          examples: { type: 'list', items: { type: 'string' }, default: () => [] },
        },
      },
    },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One starter: pk sentenceStarter#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'sentenceStarter#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'sentenceStarter', casing: 'none' },
    },
    // Every starter (a small collection, ordered in code): gsi1pk sentenceStarters, gsi1sk {id}
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'sentenceStarters', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['id'], template: '${id}', casing: 'none' },
    },
  },
});
