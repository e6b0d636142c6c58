// The experiments' catalogue (the spec's experiment processes and implementations): what each
// implementation does, on which targets, which run fields it asks for, which datasets it reads and
// which placeholders its prompts may use. Everything else in core/experiments reads it from here.
import { RELEVANCE_LABELS } from '#core/ai';
import { AUTOMATIONS, type Placeholder } from '#core/prompts';

/** What a run of an implementation does; the engine has one method per kind. */
export type Kind = 'score' | 'pick' | 'embed' | 'categorize' | 'cluster' | 'preprocess' | 'chain';
/** Whom it works for: audiences (the spec's descriptors), readers, or the content itself. */
export type Subject = 'descriptor' | 'user' | 'content';
/** What it works on: articles, or stories (articles about the same event, grouped). */
export type Material = 'articles' | 'stories';

export type Field =
  | 'model'
  | 'prompt'
  | 'numOfPicks'
  | 'articleLimit'
  | 'preprocessType'
  | 'concatenationType'
  | 'threshold'
  | 'selectionOfRelevance';

export const DATASET_GROUPS = [
  'first_layer_descriptor',
  'first_layer_user',
  'content_layer',
  'pipeline',
] as const;
export type DatasetGroup = (typeof DATASET_GROUPS)[number];

export const IMPLEMENTATION_IDS = [
  'chaining-per-descriptor',
  'score-articles-per-descriptor',
  'pick-best-content-per-descriptor',
  'embeddings-per-descriptor',
  'chaining-per-user',
  'pick-best-content-per-user',
  'score-articles-per-user',
  'embeddings-per-user',
  'score-stories-per-user',
  'stories-embeddings-per-user',
  'chaining-stories-per-user',
  'content-categorization-by-scoring',
  'story-clustering-by-embeddings',
  'story-preprocessing-per-cluster',
] as const;
export type ImplementationId = (typeof IMPLEMENTATION_IDS)[number];

export type Implementation = {
  id: ImplementationId;
  name: string;
  processId: ProcessId;
  kind: Kind;
  subject: Subject;
  material: Material;
  /** The run form's fields besides name, comments and dataset (a chain has steps instead). */
  fields: Field[];
  /** Datasets it can read. */
  groups: DatasetGroup[];
  /** The spec's six, plus descriptor scoring (ADR 0041): the implementations with 'Prompt management'. */
  managesPrompts: boolean;
  /** The Prompt records its runs choose from (descriptor scoring shares production's 'scoring'). */
  promptsOf?: string;
  /** The spec's info list: placeholder and description pairs. */
  info: Placeholder[];
};

export const PROCESS_IDS = ['descriptor-experiments', 'user-experiments', 'content-experiments'];
export type ProcessId = (typeof PROCESS_IDS)[number];
export const PROCESSES: { id: ProcessId; name: string }[] = [
  { id: 'descriptor-experiments', name: 'Descriptor experiments' },
  { id: 'user-experiments', name: 'User experiments' },
  { id: 'content-experiments', name: 'Content experiments' },
];

export const PREPROCESS_TYPES = [
  'FirstParagraph',
  'MetadataDescription',
  'Summary',
  'Topics',
  'TitleContent',
  'TitleFirstParagraph',
  'TitleSummary',
  'TitleTopics',
] as const;
export type PreprocessType = (typeof PREPROCESS_TYPES)[number];
export const CONCATENATION_TYPES = ['ArticleWithEnumeration', 'ArticleWithoutEnumeration'] as const;
export type ConcatenationType = (typeof CONCATENATION_TYPES)[number];
/** The labels a run's relevance selection chooses from: the labels our scoring gives. */
export const RELEVANCE_OPTIONS = RELEVANCE_LABELS;

const p = (name: string, description: string, required = false): Placeholder => ({
  name,
  description,
  required,
});
const placeholdersOf = (automationId: string) =>
  AUTOMATIONS.find((automation) => automation.id === automationId)?.placeholders ?? [];

const SCORING_INFO = placeholdersOf('scoring');
const PICK_INFO = placeholdersOf('pick-best-content');
const EMBEDDING_INFO = [
  p('clues', 'Embedded as one text per target: its clues, one per line'),
  p('title', "Embedded with each article: the article's title"),
  p('summary', "Embedded with each article: the article's summary"),
];
const STORY_INFO = [
  p('articles', "The cluster's articles, preprocessed and concatenated", true),
  p('count', 'How many articles the cluster has'),
];
const CATEGORY_INFO = [
  p('title', "The article's title", true),
  p('summary', "The article's summary or first paragraph"),
  p('category', "The article's category, when the feed gives one"),
  p('audience', "The category's title (an audience)"),
  p('clues', "The categories' clues, one per line", true),
];

type Spec = Omit<Implementation, 'managesPrompts' | 'info'> & {
  managesPrompts?: boolean;
  info?: Placeholder[];
};
const SCORE_FIELDS: Field[] = ['model', 'prompt', 'articleLimit', 'threshold'];
const PICK_FIELDS: Field[] = [
  'model',
  'prompt',
  'numOfPicks',
  'articleLimit',
  'threshold',
  'selectionOfRelevance',
];
const EMBED_FIELDS: Field[] = ['model', 'articleLimit', 'threshold'];

const SPECS: Spec[] = [
  {
    id: 'chaining-per-descriptor',
    name: 'Chaining per Descriptor',
    processId: 'descriptor-experiments',
    kind: 'chain',
    subject: 'descriptor',
    material: 'articles',
    fields: [],
    groups: ['first_layer_descriptor', 'pipeline'],
  },
  {
    id: 'score-articles-per-descriptor',
    name: 'Score Articles per Descriptor',
    processId: 'descriptor-experiments',
    kind: 'score',
    subject: 'descriptor',
    material: 'articles',
    fields: SCORE_FIELDS,
    groups: ['first_layer_descriptor', 'pipeline'],
    managesPrompts: true,
    promptsOf: 'scoring',
    info: SCORING_INFO,
  },
  {
    id: 'pick-best-content-per-descriptor',
    name: 'Pick Best Content per Descriptor',
    processId: 'descriptor-experiments',
    kind: 'pick',
    subject: 'descriptor',
    material: 'articles',
    fields: PICK_FIELDS,
    groups: ['first_layer_descriptor', 'pipeline'],
    managesPrompts: true,
    info: PICK_INFO,
  },
  {
    id: 'embeddings-per-descriptor',
    name: 'Embeddings per Descriptor',
    processId: 'descriptor-experiments',
    kind: 'embed',
    subject: 'descriptor',
    material: 'articles',
    fields: EMBED_FIELDS,
    groups: ['first_layer_descriptor', 'pipeline'],
    info: EMBEDDING_INFO,
  },
  {
    id: 'chaining-per-user',
    name: 'Chaining per User',
    processId: 'user-experiments',
    kind: 'chain',
    subject: 'user',
    material: 'articles',
    fields: [],
    groups: ['first_layer_user', 'pipeline'],
  },
  {
    id: 'pick-best-content-per-user',
    name: 'Pick Best Content per User',
    processId: 'user-experiments',
    kind: 'pick',
    subject: 'user',
    material: 'articles',
    fields: PICK_FIELDS,
    groups: ['first_layer_user', 'pipeline'],
    managesPrompts: true,
    info: PICK_INFO,
  },
  {
    id: 'score-articles-per-user',
    name: 'Score Articles per User',
    processId: 'user-experiments',
    kind: 'score',
    subject: 'user',
    material: 'articles',
    fields: SCORE_FIELDS,
    groups: ['first_layer_user', 'pipeline'],
    managesPrompts: true,
    info: SCORING_INFO,
  },
  {
    id: 'embeddings-per-user',
    name: 'Embeddings per User',
    processId: 'user-experiments',
    kind: 'embed',
    subject: 'user',
    material: 'articles',
    fields: EMBED_FIELDS,
    groups: ['first_layer_user', 'pipeline'],
    info: EMBEDDING_INFO,
  },
  {
    id: 'score-stories-per-user',
    name: 'Score Stories per User',
    processId: 'user-experiments',
    kind: 'score',
    subject: 'user',
    material: 'stories',
    fields: SCORE_FIELDS,
    groups: ['pipeline'],
    managesPrompts: true,
    info: SCORING_INFO,
  },
  {
    id: 'stories-embeddings-per-user',
    name: 'Stories Embeddings per User',
    processId: 'user-experiments',
    kind: 'embed',
    subject: 'user',
    material: 'stories',
    fields: EMBED_FIELDS,
    groups: ['pipeline'],
    info: EMBEDDING_INFO,
  },
  {
    id: 'chaining-stories-per-user',
    name: 'Chaining Stories per User',
    processId: 'user-experiments',
    kind: 'chain',
    subject: 'user',
    material: 'stories',
    fields: [],
    groups: ['pipeline'],
  },
  {
    id: 'content-categorization-by-scoring',
    name: 'Content Categorization by Scoring',
    processId: 'content-experiments',
    kind: 'categorize',
    subject: 'descriptor',
    material: 'articles',
    fields: ['model', 'prompt', 'articleLimit', 'threshold'],
    groups: ['first_layer_descriptor', 'pipeline'],
    managesPrompts: true,
    info: CATEGORY_INFO,
  },
  {
    id: 'story-clustering-by-embeddings',
    name: 'Story Clustering by Embeddings',
    processId: 'content-experiments',
    kind: 'cluster',
    subject: 'content',
    material: 'articles',
    fields: ['model', 'articleLimit', 'threshold'],
    groups: ['content_layer', 'pipeline'],
    info: [p('title', 'Embedded per article: its title'), p('summary', 'Embedded: its summary')],
  },
  {
    id: 'story-preprocessing-per-cluster',
    name: 'Story PreProcessing per Cluster',
    processId: 'content-experiments',
    kind: 'preprocess',
    subject: 'content',
    material: 'stories',
    fields: ['model', 'prompt', 'articleLimit', 'preprocessType', 'concatenationType'],
    groups: ['content_layer', 'pipeline'],
    managesPrompts: true,
    info: STORY_INFO,
  },
];

export const IMPLEMENTATIONS: Implementation[] = SPECS.map((spec) => ({
  ...spec,
  managesPrompts: spec.managesPrompts ?? false,
  info: spec.info ?? [],
}));

export function implementation(id: string): Implementation | undefined {
  return IMPLEMENTATIONS.find((candidate) => candidate.id === id);
}

export const implementationsOf = (processId: string) =>
  IMPLEMENTATIONS.filter((candidate) => candidate.processId === processId);

/** The Prompt records an implementation's runs choose from and its 'Prompt management' keeps. */
export const promptsOf = (implementation: Implementation) =>
  implementation.promptsOf ?? implementation.id;

/** A chain's steps: any implementation of its subject and material that is not itself a chain. */
export function stepChoices(chain: Implementation): Implementation[] {
  return IMPLEMENTATIONS.filter(
    (candidate) =>
      candidate.kind !== 'chain' &&
      (candidate.subject === chain.subject || candidate.subject === 'content') &&
      (candidate.kind !== 'categorize' || chain.subject === 'descriptor') &&
      candidate.groups.some((group) => chain.groups.includes(group)),
  );
}

/** The spec's run-form messages, shown on blur and answered by the server alike. */
export const RUN_MESSAGES = {
  name: 'Please add a name',
  dataset: 'Please select dataset',
  model: 'Please select model',
  prompt: 'Please select prompt',
  numOfPicks: 'Please add a number of picks',
  articleLimit: 'Please add article limit',
  preprocessType: 'Please select preprocess type',
  concatenationType: 'Please select concatenation type',
  selectionOfRelevance: 'Please select at least one relevance option',
  threshold: 'Value should be between 0 and 1',
  steps: 'Please add at least one step',
} as const;
