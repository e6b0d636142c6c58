// ExperimentDataset: a frozen snapshot's record (datasets.ts freezes and reads it), written last,
// once its items are all there.
import { defineEntity } from '#core/db';
import { DATASET_GROUPS } from './catalog';

export const DatasetEntity = defineEntity({
  model: { entity: 'experimentDataset', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    group: { type: DATASET_GROUPS, required: true },
    articles: { type: 'number', required: true },
    descriptors: { type: 'number', required: true },
    users: { type: 'number', required: true },
    stories: { type: 'number', required: true },
    scores: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
    systemUserId: { type: 'string', required: true },
  },
  indexes: {
    // One dataset: pk dataset#{id}, sk dataset
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'dataset#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'dataset', casing: 'none' },
    },
    // Every dataset, newest first (the run form's picker; a small collection): gsi1pk datasets
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'datasets', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});
