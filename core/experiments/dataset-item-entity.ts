// ExperimentDatasetItem: one frozen thing of a dataset (an article with its text, a target with
// its clues, a target's scored pool, a story), JSON in `data`.
import { defineEntity } from '#core/db';

/** `names`: one item with every article's and story's title and every target's name (a comparison's read). */
export const ITEM_KINDS = ['article', 'descriptor', 'user', 'pool', 'story', 'names'] as const;

/** One frozen thing (an article with its text, a target with its clues, a target's scored pool, a story). */
export const DatasetItemEntity = defineEntity({
  model: { entity: 'experimentDatasetItem', version: '1', service: 'cluefeed' },
  attributes: {
    datasetId: { type: 'string', required: true },
    kind: { type: ITEM_KINDS, required: true },
    index: { type: 'number', required: true },
    data: { type: 'string', required: true },
  },
  indexes: {
    // A dataset's items (a run's read, never a request's): pk dataset#{id}, sk item#{kind}#{index}
    byDataset: {
      pk: {
        field: 'pk',
        composite: ['datasetId'],
        template: 'dataset#${datasetId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['kind', 'index'],
        template: 'item#${kind}#${index}',
        casing: 'none',
      },
    },
  },
});
