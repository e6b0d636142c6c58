// Datasets: frozen snapshots of our own data that runs read, so a run is reproducible. Freezing
// copies the newest articles with their text, the active audiences (descriptors) and readers'
// clues, production's scores of those pairs (the scored pools picks choose from) and stories
// (the articles clustered by embeddings) into the dataset's own partition. Nothing a run reads
// comes from the live tables: a later change of an article, an audience or a reader's clues
// never changes a run's output.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import { fn, freeText, mapPool, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import { logger } from '#core/logs';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { DATASET_GROUPS, type DatasetGroup } from './catalog';
import { DatasetEntity } from './dataset-entity';
import { StarterDatasetsClaimEntity } from './starter-claim-entity';
import { DatasetItemEntity, ITEM_KINDS } from './dataset-item-entity';

export { DatasetEntity, DatasetItemEntity };
import { clusterByVectors, embedAll, type Story } from './stories';

export type Dataset = EntityItem<typeof DatasetEntity>;

export type FrozenArticle = {
  id: string;
  title: string;
  summary: string;
  content: string;
  source: string;
  link: string;
  publishedAt: string;
};
/** An audience (the spec's descriptor) or a reader, as a run's matching entity. */
export type FrozenTarget = {
  type: 'audience' | 'user';
  id: string;
  /** What the screen calls it: the audience's title, or the reader's clues (never their name). */
  name: string;
  clues: string[];
};
export type PoolEntry = { itemId: string; label: Ai.RelevanceLabel; score: number };
export type FrozenPool = { targetId: string; entries: PoolEntry[] };

/** Everything a run reads from its dataset. */
export type Frozen = {
  dataset: Dataset;
  articles: FrozenArticle[];
  targets: FrozenTarget[];
  pools: Map<string, PoolEntry[]>;
  stories: Story[];
};

export const DATASET_LIMITS = { articles: 200, descriptors: 50, users: 50 } as const;
/** How close two articles' embeddings must be to be one story when a dataset is frozen. */
export const FREEZE_STORY_THRESHOLD = 0.5;

export const DATASET_MESSAGES = {
  name: 'Please add a name',
  group: 'Please choose a dataset group',
  articles: `Please choose between 1 and ${DATASET_LIMITS.articles} articles`,
  noArticles: 'There are no articles to freeze yet: import some first',
};

const GROUP_CONTENT: Record<
  DatasetGroup,
  { descriptors: boolean; users: boolean; stories: boolean }
> = {
  first_layer_descriptor: { descriptors: true, users: false, stories: false },
  first_layer_user: { descriptors: false, users: true, stories: false },
  content_layer: { descriptors: false, users: false, stories: true },
  pipeline: { descriptors: true, users: true, stories: true },
};

export const FreezeInput = v.object({
  name: v.pipe(
    freeText({
      max: 200,
      tooLong: 'A name has at most 200 characters',
      missing: DATASET_MESSAGES.name,
    }),
    v.nonEmpty(DATASET_MESSAGES.name),
  ),
  group: v.picklist(DATASET_GROUPS, DATASET_MESSAGES.group),
  articles: v.optional(
    v.pipe(
      v.number(DATASET_MESSAGES.articles),
      v.integer(DATASET_MESSAGES.articles),
      v.minValue(1, DATASET_MESSAGES.articles),
      v.maxValue(DATASET_LIMITS.articles, DATASET_MESSAGES.articles),
    ),
    100,
  ),
  systemUserId: v.optional(v.string(), '-'),
});

const frozenArticle = (article: Articles.Article): FrozenArticle => ({
  id: article.id,
  title: article.title.slice(0, 1_000),
  summary: (article.summary ?? '').slice(0, 5_000),
  content: (article.content ?? '').slice(0, 8_000),
  source: article.source,
  link: article.canonicalUrl,
  publishedAt: article.publishedAt,
});

async function readers(): Promise<FrozenTarget[]> {
  const found: FrozenTarget[] = [];
  let cursor: string | undefined;
  do {
    const page = await Users.list({ cursor, limit: 50 });
    for (const user of page.users) {
      const clues = (user.descriptors ?? []).map((descriptor) => descriptor.clue);
      if (!user.isActive || user.status !== 'Onboarded' || clues.length === 0) continue;
      found.push({ type: 'user', id: user.id, name: clues.join('; ').slice(0, 120), clues });
      if (found.length === DATASET_LIMITS.users) return found;
    }
    cursor = page.next;
  } while (cursor);
  return found;
}

async function descriptors(): Promise<FrozenTarget[]> {
  return (await Audiences.list())
    .filter((audience) => audience.state === 'active')
    .slice(0, DATASET_LIMITS.descriptors)
    .map((audience) => ({
      type: 'audience',
      id: audience.id,
      name: audience.title,
      clues: [audience.title],
    }));
}

/**
 * Runs and comparisons show and count matching entities by name: readers who chose the same clues
 * get distinct names, '(2)' after the second. (A reader's name is only shown; an audience's title
 * is what it is scored as, so audiences keep theirs.)
 */
function distinctNames(targets: FrozenTarget[]): FrozenTarget[] {
  const used = new Set<string>();
  return targets.map((target) => {
    let name = target.name;
    for (let count = 2; used.has(name); count++) name = `${target.name} (${count})`;
    used.add(name);
    return name === target.name ? target : { ...target, name };
  });
}

export const scoringTarget = (target: FrozenTarget): Scoring.MatchingTarget =>
  target.type === 'audience'
    ? Scoring.audienceTarget({ id: target.id, title: target.name })
    : Scoring.userTarget({ id: target.id, descriptors: target.clues.map((clue) => ({ clue })) });

/** Production's scores of the dataset's pairs, per target: the pools picks choose from. */
async function pools(articles: FrozenArticle[], targets: FrozenTarget[]): Promise<FrozenPool[]> {
  if (targets.length === 0 || articles.length === 0) return [];
  const keys = await Scoring.productionKeys();
  const { scores } = await Scoring.forPairs(
    articles.map((article) => article.id),
    targets.map(scoringTarget),
    keys,
  );
  return targets.map((target) => ({
    targetId: target.id,
    entries: scores
      .filter((score) => score.matchingId === target.id)
      .map((score) => ({ itemId: score.articleId, label: score.label, score: score.score }))
      .sort((a, b) => b.score - a.score),
  }));
}

/**
 * Freezes a dataset of one group from the newest articles and what the group needs. Written
 * items first and the dataset's record last, so a dataset is listed only once it is whole.
 */
export const freezeDataset = fn(FreezeInput, async (input): Promise<Dataset> => {
  const content = GROUP_CONTENT[input.group];
  const articles = (await Articles.latest(input.articles)).map(frozenArticle);
  if (articles.length === 0)
    throw new VisibleError('dataset.empty', DATASET_MESSAGES.noArticles, 409);
  const targets = [
    ...(content.descriptors ? await descriptors() : []),
    ...(content.users ? distinctNames(await readers()) : []),
  ];
  const frozenPools = await pools(articles, targets);
  let stories: Story[] = [];
  if (content.stories) {
    const model = await Ai.configured('embeddings');
    const { vectors } = await embedAll(articles, model);
    stories = clusterByVectors(articles, vectors, FREEZE_STORY_THRESHOLD);
  }
  const id = ulid();
  const items = [
    ...articles.map((data, index) => ({ kind: 'article' as const, index, data })),
    ...targets.map((data, index) => ({
      kind: data.type === 'audience' ? ('descriptor' as const) : ('user' as const),
      index,
      data,
    })),
    ...frozenPools.map((data, index) => ({ kind: 'pool' as const, index, data })),
    ...stories.map((data, index) => ({ kind: 'story' as const, index, data })),
    { kind: 'names' as const, index: 0, data: namesOf(articles, targets, stories) },
  ];
  await mapPool(items, 10, ({ kind, index, data }) =>
    DatasetItemEntity.create({ datasetId: id, kind, index, data: JSON.stringify(data) }).go(),
  );
  const dataset: Dataset = {
    id,
    name: input.name,
    group: input.group,
    articles: articles.length,
    descriptors: targets.filter((target) => target.type === 'audience').length,
    users: targets.filter((target) => target.type === 'user').length,
    stories: stories.length,
    scores: frozenPools.reduce((sum, pool) => sum + pool.entries.length, 0),
    createdAt: new Date().toISOString(),
    systemUserId: input.systemUserId,
  };
  await DatasetEntity.create(dataset).go();
  return dataset;
});

/** Every dataset, newest first. */
export async function datasets(): Promise<Dataset[]> {
  const { data } = await DatasetEntity.query.all({}).go({ order: 'desc', pages: 'all' });
  return data;
}

export async function datasetById(id: string): Promise<Dataset | undefined> {
  if (!id) return undefined;
  const { data } = await DatasetEntity.get({ id }).go();
  return data ?? undefined;
}

/** What a comparison names its items and entities by: titles and names, without any text. */
export type DatasetNames = { titles: Record<string, string>; names: Record<string, string> };

function namesOf(
  articles: FrozenArticle[],
  targets: FrozenTarget[],
  stories: Story[],
): DatasetNames {
  return {
    titles: Object.fromEntries(
      [...articles, ...stories].map((item) => [item.id, item.title.slice(0, 300)]),
    ),
    names: Object.fromEntries(targets.map((target) => [target.id, target.name])),
  };
}

/** A dataset's titles and names: one GetItem (the compare page's read, never the whole partition). */
export async function namesIn(datasetId: string): Promise<DatasetNames> {
  if (!datasetId) return { titles: {}, names: {} };
  const { data } = await DatasetItemEntity.get({ datasetId, kind: 'names', index: 0 }).go();
  return data ? (JSON.parse(data.data) as DatasetNames) : { titles: {}, names: {} };
}

/** A dataset's frozen items (a run's read: bounded by DATASET_LIMITS). */
export async function thaw(id: string): Promise<Frozen> {
  const dataset = await datasetById(id);
  if (!dataset) throw new VisibleError('dataset.unknown', 'Please select dataset', 400);
  const { data } = await DatasetItemEntity.query.byDataset({ datasetId: id }).go({ pages: 'all' });
  const of = <T>(kind: (typeof ITEM_KINDS)[number]) =>
    data
      .filter((item) => item.kind === kind)
      .sort((a, b) => a.index - b.index)
      .map((item) => JSON.parse(item.data) as T);
  return {
    dataset,
    articles: of<FrozenArticle>('article'),
    targets: [...of<FrozenTarget>('descriptor'), ...of<FrozenTarget>('user')],
    pools: new Map(of<FrozenPool>('pool').map((pool) => [pool.targetId, pool.entries])),
    stories: of<Story>('story'),
  };
}

/** Datasets a first import freezes when there are none, so the workbench has something to run on. */
export const STARTER_DATASETS: { name: string; group: DatasetGroup }[] = [
  { name: 'Newest articles for audiences', group: 'first_layer_descriptor' },
  { name: 'Newest articles for readers', group: 'first_layer_user' },
  { name: 'Newest articles and their stories', group: 'content_layer' },
  { name: 'Everything: audiences, readers and stories', group: 'pipeline' },
];

/**
 * Freezes the starter datasets when no dataset exists yet and there are articles (after an import;
 * production scoring's end), once: the first caller claims it, so racing callers freeze nothing.
 * A starter that cannot be frozen (stories need the embeddings model, which may be out) is logged
 * and left out: the others are frozen, and production's run ends all the same. Answers how many
 * it froze.
 */
export async function freezeStarterDatasets(systemUserId: string): Promise<number> {
  const { data } = await DatasetEntity.query.all({}).go({ count: 1 });
  if (data.length > 0 || (await Articles.latest(1)).length === 0) return 0;
  if (!(await claimStarters(systemUserId))) return 0;
  let frozen = 0;
  try {
    for (const starter of STARTER_DATASETS) {
      try {
        await freezeDataset({ ...starter, systemUserId });
        frozen++;
      } catch (error) {
        logger.error(`Could not freeze the starter dataset ${starter.name}`, { error });
      }
    }
  } finally {
    // Nothing frozen (every starter failed): a later run may try again.
    if (frozen === 0) await StarterDatasetsClaimEntity.delete({}).go();
  }
  return frozen;
}

/** True for the one caller that may freeze the starters. */
async function claimStarters(systemUserId: string): Promise<boolean> {
  try {
    await StarterDatasetsClaimEntity.create({
      claimedAt: new Date().toISOString(),
      systemUserId,
    }).go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
