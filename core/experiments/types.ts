// The shapes experiments share with the admin screen: a run's input (the spec's run input and
// chaining input), its output, what the runs table shows, and a comparison of runs.
import type { ConcatenationType, DatasetGroup, Kind, PreprocessType } from './catalog';

/** One run's settings (a chain's step carries the same, under its own implementation). */
export type StepSettings = {
  expGptModelId?: string;
  expPromptId?: string;
  numOfPicks?: number;
  articleLimit?: number;
  preprocessType?: PreprocessType;
  /** The spec's single run calls it concatenationType, a chaining step concatenationTypes. */
  concatenationType?: ConcatenationType;
  threshold?: number;
  selectionOfRelevance?: string[];
};

export type ChainStep = StepSettings & { expImplementationId: string };

export type RunInput = StepSettings & { dataset: string; steps?: ChainStep[] };

export const RUN_STATUSES = ['Queued', 'Running', 'Success', 'Failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export type Usage = {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** null: some call was to a model whose price is not known ("cost unknown"). */
  costUsd: number | null;
};

/** Per matching entity (an audience, a reader, a category), its count per label and a Total. */
export type EntityResult = {
  matchingEntity: string;
  groupByMetricPerMatchingEntity: Record<string, number>;
};

export type PickResult = {
  matchingEntity: string;
  header?: string;
  reason?: string;
  picks: { articleId: string; title: string; score: number }[];
};

export type ClusterResult = { storyId: string; title: string; articles: string[] };
export type TextResult = { storyId: string; title: string; text: string };
export type VectorSummary = { vectors: number; dimensions: number; meanSimilarity: number };

/** What one step produced: the fields its kind makes, and always usage, prompt and model. */
export type StepOutput = {
  implementation: string;
  kind: Exclude<Kind, 'chain'>;
  resultsPerMatchingEntity: EntityResult[];
  picks?: PickResult[];
  clusters?: ClusterResult[];
  texts?: TextResult[];
  vectors?: VectorSummary;
  usage: Usage;
  prompt?: { id: string; title: string; prompt: string };
  model: { id: string; name: string };
  /** Items the step worked on (pairs scored, stories written, targets picked for). */
  items: number;
  /** Pairs the model could not score: not in the counts or a comparison. */
  failed?: number;
};

export type RunOutput = StepOutput & {
  /** A chain's steps in order; the run's own fields are its last step's. */
  steps?: StepOutput[];
  durationMs: number;
  dataset: { id: string; name: string; group: DatasetGroup };
};

/** A run as the runs table, its preview and its page show it. */
export type RunView = {
  id: string;
  expImplementationId: string;
  name: string;
  comments: string;
  input: RunInput;
  output?: RunOutput;
  status?: RunStatus;
  /** When its latest execution was queued. */
  executedAt?: string;
  /** Why its latest execution failed. */
  error?: string;
  createdAt: string;
  systemUserId: string;
  revision: number;
  /** The spec's rule: a run with no status or Failed can be executed and edited. */
  canExecute: boolean;
};

export type Agreement = {
  a: string;
  b: string;
  /** Items both runs labelled. */
  shared: number;
  identical: number;
  /** Share of identical labels (0..1); null when they share no item. */
  share: number | null;
  /** Cohen's kappa; null when undefined (no shared items, or chance agreement is 1). */
  kappa: number | null;
};

export type Comparison = {
  implementation: string;
  runs: (Pick<RunView, 'id' | 'name'> &
    Pick<StepOutput, 'usage' | 'model' | 'prompt' | 'items'> & { durationMs: number })[];
  /** The labels (or 'picked'/'not picked') the distributions count, in order. */
  labels: string[];
  distributions: { matchingEntity: string; perRun: Record<string, Record<string, number>> }[];
  agreement: Agreement[];
  /** Items whose label or pick differs between the runs (at most 500). */
  differences: { matchingEntity: string; item: string; perRun: Record<string, string> }[];
  differencesTotal: number;
};
