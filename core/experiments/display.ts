// How the Experiments screens explain the catalogue's internal names in the operator's words:
// processes, implementations, dataset groups and what a run's threshold does. Display only.
import type { DatasetGroup, Implementation, Kind, ProcessId } from './catalog';
import type { Dataset } from './datasets';
import { DEFAULT_THRESHOLD } from './engine';

/** Each process in a sentence: whom its experiments work for. */
export const PROCESS_WORDS: Record<ProcessId, string> = {
  'descriptor-experiments':
    'Experiments for audiences (called descriptors here): score, pick and compare articles for each audience.',
  'user-experiments':
    "Experiments for readers: score, pick and compare articles and stories against each reader's clues.",
  'content-experiments':
    'Experiments on the content itself: sort articles into categories, group them into stories and write each story.',
};

/** A dataset group's short name and what a dataset of it freezes. */
export const GROUP_WORDS: Record<DatasetGroup, { label: string; holds: string }> = {
  first_layer_descriptor: {
    label: 'Audiences',
    holds: 'articles, audiences and their scored pools',
  },
  first_layer_user: { label: 'Readers', holds: "articles, readers' clues and their scored pools" },
  content_layer: { label: 'Stories', holds: 'articles and their stories' },
  pipeline: { label: 'Everything', holds: 'articles, audiences, readers, pools and stories' },
};

const SUBJECT_WORDS: Record<Implementation['subject'], string> = {
  descriptor: 'each audience',
  user: 'each reader',
  content: 'the articles',
};

/** An implementation in a sentence, from what it does, for whom and on what. */
export function implementationWords({ kind, subject, material }: Implementation): string {
  const who = SUBJECT_WORDS[subject];
  switch (kind) {
    case 'chain':
      return `Runs several steps one after another for ${who}, each step reading what the one before passed on.`;
    case 'score':
      return `Asks the model how relevant each of the ${material} is to ${who}, and labels it.`;
    case 'pick':
      return `Asks the model to pick the best ${material} for ${who} from its scored pool.`;
    case 'embed':
      return `Compares the ${material} with ${who}'s clues by meaning (embeddings), without a prompt.`;
    case 'categorize':
      return `Scores the articles against ${who} and assigns each to the audiences it fits.`;
    case 'cluster':
      return 'Groups articles about the same event into stories by their meaning (embeddings).';
    case 'preprocess':
      return 'Asks the model to write a title and a text for each story from its articles.';
  }
}

const THRESHOLD_WORDS: Record<Exclude<Kind, 'chain' | 'preprocess'>, string> = {
  score:
    'It does not change the labels: in a chain, only articles scoring at least this pass on to the next step.',
  pick: 'Only candidates scoring at least this can be picked.',
  categorize: 'An article is assigned to an audience when its score is at least this.',
  embed: "An item is 'Above threshold' when its similarity to the clues is at least this.",
  cluster:
    'Articles join one story when their similarity is at least this: higher makes more, smaller stories.',
};

/** What the threshold does for an implementation's runs, and what an empty one means. */
export function thresholdWords(kind: Kind): string | undefined {
  if (kind === 'chain' || kind === 'preprocess') return undefined;
  const empty = DEFAULT_THRESHOLD[kind === 'pick' ? 'score' : kind];
  return `${THRESHOLD_WORDS[kind]} Left empty: ${empty}.`;
}

/** Each dataset once: the newest of those with one name and group (datasets come newest first). */
export function datasetsOnce(datasets: Dataset[]): Dataset[] {
  const seen = new Set<string>();
  return datasets.filter((dataset) => {
    const key = `${dataset.group}\u0000${dataset.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
