// Scoring: how relevant each article is to each audience and each reader, by a prompt version and
// a model (ADR 0033). A score is a cache entry keyed by what made it: article, target, the hash of
// the target's clues, prompt and model (store.ts). Before a call, a BatchGetItem of the pairs'
// keys says which are left; a score is written with a condition, so a redelivered chunk stores
// nothing twice. A pair the model could not score is recorded as a failure and stays unscored,
// so the next run tries it again; one bad answer never stops a run. Experiments and prompt tests
// score into their own run (store.experiment), never into production's store.
import { ExperimentScoreEntity } from './experiment-score-entity';
import { ScoreCountsEntity } from './score-counts-entity';
import { ScoreEntity } from './score-entity';
import { ScoreFailureEntity } from './score-failure-entity';
import { MATCHING_TYPES } from './store-keys';
import { ScoringWatermarkEntity } from './watermark-entity';

export {
  ExperimentScoreEntity,
  ScoreCountsEntity,
  ScoreEntity,
  ScoreFailureEntity,
  ScoringWatermarkEntity,
  MATCHING_TYPES,
};
export { V1ScoreEntity, V1ScoreFailureEntity } from './v1-entities';
export {
  cluesHash,
  ranked,
  labelCounts,
  forPairs,
  failuresSince,
  FAILURE_ATTEMPTS,
  watermarks,
  targetKey,
  markPlanned,
  experimentScoresOf,
  forgetTarget,
  forgetOtherClues,
  storeScore,
  type Score,
  type ScoreFailure,
  type ScoringWatermark,
  type PlannedUpTo,
  type ExperimentScore,
  type LabelCounts,
  type MatchingTarget,
  type MatchingType,
  type ScoreStore,
  type SetupKeys,
} from './store';
export {
  testPrompts,
  PROMPT_TESTING_MESSAGE,
  PROMPT_TEST_ARTICLES,
  type PromptTestResult,
} from './prompt-testing';
export {
  productionSetup,
  promote,
  ProductionScoringEntity,
  PRODUCTION_MESSAGES,
  type ProductionSetup,
} from './production';

export * from './score';
