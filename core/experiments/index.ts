// Experiments (ADR 0041): operators compare prompts, models and settings on frozen datasets before
// they change what readers get. A run is executed as a job on the same runtime as production, in a
// slot of its own; its results are kept with the run and never touch production's scores, picks,
// posts or cards. Only 'promote' (a scoring run's prompt and model) changes production, through the
// scoring foundation's promote.
export * from './catalog';
export * from './types';
export {
  DatasetEntity,
  DatasetItemEntity,
  DATASET_LIMITS,
  DATASET_MESSAGES,
  datasets,
  datasetById,
  freezeDataset,
  type Dataset,
} from './datasets';
export { addPrompt, duplicatePrompt, prompts, removePrompt, seedDefaultPrompts } from './prompts';
export { FreezeInput, freezeStarterDatasets, STARTER_DATASETS, thaw } from './datasets';
export {
  ExperimentRunEntity,
  RUN_REFUSALS,
  RUNS_PAGE_SIZE,
  RUNS_PAGES,
  QUEUEING_MS,
  RUN_LIMITS,
  checkRun,
  addRun,
  updateRun,
  duplicateRun,
  executeRun,
  run,
  runs,
  type RunForm,
} from './runs';
export { ExperimentResultEntity } from './results';
export { freezeDatasetJob, runExperiment } from './job';
export { compare, comparisonCsv, cohensKappa, COMPARE_MESSAGES } from './compare';
export { isPromotable, promoteRun, PROMOTE_MESSAGES } from './promote';
export { activeExperiments, type ActiveExperiment } from './active';
export {
  datasetsOnce,
  GROUP_WORDS,
  implementationWords,
  PROCESS_WORDS,
  thresholdWords,
} from './display';
export { clusterByVectors, type Story } from './stories';
