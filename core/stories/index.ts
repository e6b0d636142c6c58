// Stories: one event told by many sources. The builder groups stored articles into stories as they
// are imported (an article joins the story of its event or starts one, see similarity.ts), and
// readers of articles get each one's story with one BatchGet.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as Articles from '#core/articles';
import { isWebLink, mapPool } from '#core/common';
import { committedOrRaced, deleteAll } from '#core/db';
import { StoryEntity } from './entity';
import { StoryBuilderLeaseEntity } from './lease-entity';
import {
  decodeCentroid,
  encodeCentroid,
  group,
  profilesOf,
  STORY_WINDOW_HOURS,
  type Forming,
} from './similarity';
import * as Lease from './lease';
import { clip, written } from './summary';

export { qualityAt, scoredPairs, type PairSet, type Quality, type ScoredPair } from './quality';

export { StoryEntity };
export {
  SAME_EVENT,
  STORY_WINDOW_HOURS,
  group,
  profileOfVector,
  profilesOf,
  type Forming,
  type Profile,
} from './similarity';

export type StorySource = {
  articleId: string;
  source: string;
  link: string;
  title: string;
  publishedAt: string;
};
export type Story = {
  id: string;
  headline: string;
  /** A short summary written from its members (extractive with the local provider). */
  summary: string;
  /** Its members, newest first, at most STORY_SOURCES_KEPT. */
  sources: StorySource[];
  /** Every member counted, also those beyond `sources`. */
  sourceCount: number;
  /** The first member's publishedAt. */
  firstAt: string;
  /** The latest member's publishedAt. */
  latestAt: string;
  /** +1 each time a member joins: a reader model can tell a story grew. */
  revision: number;
};

type StoryItem = EntityItem<typeof StoryEntity>;
type Member = StoryItem['members'][number];

/** Members a story lists (newest first); older ones are only counted. */
export const STORY_SOURCES_KEPT = 20;
/**
 * Stories read at most per batch of articles, newest first: the candidates they may join. A story
 * whose latest member is older than this many newer stories is not found (see ADR 0062).
 */
const CANDIDATES_READ = 1_000;
/** Articles grouped per pass (a story's transaction holds its item and its new members). */
const JOIN_CHUNK = 50;
/**
 * Passes for articles whose story changed under them: each pass, one of the imports racing on a
 * story lands, and an import runs 8 feeds at once (IMPORT_CONCURRENCY).
 */
const JOIN_ATTEMPTS = 10;
/** A member's text kept for the story's summary: its first sentences. */
const MEMBER_TEXT_CHARS = 280;
const HOUR_MS = 3_600_000;

const newestFirst = (a: { publishedAt: string }, b: { publishedAt: string }) =>
  b.publishedAt.localeCompare(a.publishedAt);

function storyOf(item: StoryItem): Story {
  return {
    id: item.id,
    headline: item.headline,
    summary: item.summary,
    sources: item.members.map(({ text: _text, ...source }) => source),
    sourceCount: item.sourceCount,
    firstAt: item.firstAt,
    latestAt: item.latestAt,
    revision: item.revision,
  };
}

function memberOf(article: Articles.Article): Member {
  return {
    articleId: article.id,
    source: article.source,
    link: article.canonicalUrl,
    title: article.title,
    publishedAt: article.publishedAt,
    text: clip(article.summary ?? '', MEMBER_TEXT_CHARS),
  };
}

/** An article in no story is a story of one, named by the article (as a story it starts is). */
export function storyOfOne(article: Articles.Article): Story {
  const { text: _text, ...source } = memberOf(article);
  return {
    id: article.id,
    headline: article.title,
    summary: clip(article.summary ?? ''),
    sources: [source],
    sourceCount: 1,
    firstAt: article.publishedAt,
    latestAt: article.publishedAt,
    revision: 1,
  };
}

/**
 * The other outlets that tell the story besides the one of the article shown (`shownArticleId`):
 * the newest kept member of each, newest first. An outlet's own follow-up is not another source.
 * `sourceCount` counts articles (a story grows by an update too); this is what "also covered by N
 * sources" counts.
 */
export function otherOutlets(story: Story, shownArticleId: string): StorySource[] {
  const shown = story.sources.find((source) => source.articleId === shownArticleId);
  const seen = new Set(shown ? [shown.source] : []);
  return story.sources.filter((source) => {
    if (source.articleId === shownArticleId || seen.has(source.source)) return false;
    seen.add(source.source);
    return true;
  });
}

/** The other outlets a reader can follow: those whose link is a web page, newest first. */
export function otherSources(story: Story, shownArticleId: string): StorySource[] {
  return otherOutlets(story, shownArticleId).filter((source) => isWebLink(source.link));
}

/** A story as the builder works on it: the stored item (none for a new one) and who joins. */
type Building = Forming<Articles.Article> & { id: string; stored?: StoryItem };

/** Recent stories a batch may join: one Query of the stories whose latest member is in the window. */
async function candidates(from: string): Promise<StoryItem[]> {
  const { data } = await StoryEntity.query
    .recent({})
    .gte({ latestAt: from })
    .go({ order: 'desc', count: CANDIDATES_READ });
  return data;
}

/**
 * Writes one story's new members: the story (created, or updated if its revision is still the one
 * read) with each member's storyId (set only where none is) in one transaction, which also checks
 * that this pass still holds the lease: a pass that overran it and lost it to the next writes
 * nothing, so two passes never write at once. False when a condition refused it: another import
 * joined the story, an article was joined meanwhile, or the lease was taken over.
 */
async function save(story: Building, holder: string): Promise<boolean> {
  const members = [...(story.stored?.members ?? []), ...story.joining.map(memberOf)].sort(
    newestFirst,
  );
  const kept = members.slice(0, STORY_SOURCES_KEPT);
  const { headline, summary } = await written(kept.map(({ title, text }) => ({ title, text })));
  const revision = (story.stored?.revision ?? 0) + story.joining.length;
  const fields = {
    headline,
    summary,
    members: kept,
    sourceCount: (story.stored?.sourceCount ?? 0) + story.joining.length,
    firstAt: story.firstAt,
    latestAt: story.latestAt,
    revision,
    centroid: encodeCentroid(story.centroid),
  };
  const stored = story.stored;
  return committedOrRaced(
    createWriteTransaction(
      { story: StoryEntity, article: Articles.ArticleEntity, lease: StoryBuilderLeaseEntity },
      (entities) => [
        entities.lease
          .check({})
          .where((attr, op) => op.eq(attr.holder, holder))
          .commit(),
        stored
          ? entities.story
              .patch({ id: story.id })
              .set(fields)
              .where((attr, op) => op.eq(attr.revision, stored.revision))
              .commit()
          : entities.story.create({ id: story.id, ...fields }).commit(),
        ...story.joining.map((article) =>
          entities.article
            .patch({ id: article.id })
            .set({ storyId: story.id })
            .where((attr, op) => op.notExists(attr.storyId))
            .commit(),
        ),
      ],
    ),
  );
}

/**
 * The stories a pass may join: one Query of the recent ones, and those the last pass wrote read
 * by id (consistently), which the index may not show yet.
 */
async function candidatesFor(from: string, lastWritten: readonly string[]): Promise<StoryItem[]> {
  const [recent, { data: lastPass }] = await Promise.all([
    candidates(from),
    lastWritten.length > 0
      ? StoryEntity.get(lastWritten.map((id) => ({ id }))).go({ consistent: true })
      : { data: [] },
  ]);
  const byId = new Map(recent.map((item) => [item.id, item]));
  for (const item of lastPass) {
    if (item.latestAt >= from && (byId.get(item.id)?.revision ?? 0) < item.revision)
      byId.set(item.id, item);
  }
  return [...byId.values()];
}

/**
 * One pass over a few articles in no story yet; answers the ids to pass again (their story
 * changed meanwhile, or one was joined by another pass since it was read).
 */
async function joinOnce(
  articles: readonly Articles.Article[],
  lease: Lease.Lease & { wrote: string[] },
): Promise<string[]> {
  const earliest = Math.min(...articles.map((article) => Date.parse(article.publishedAt)));
  const [profiles, recent] = await Promise.all([
    profilesOf(articles),
    candidatesFor(new Date(earliest - STORY_WINDOW_HOURS * HOUR_MS).toISOString(), lease.written),
  ]);
  const stories = group(
    articles.map((article, index) => ({ report: article, profile: profiles[index]! })),
    recent.map((item): Building => ({
      id: item.id,
      stored: item,
      centroid: decodeCentroid(item.centroid),
      firstAt: item.firstAt,
      latestAt: item.latestAt,
      joining: [],
    })),
    // A story is named by the article that starts it: a redelivered start writes the same one.
    (article, profile): Building => ({
      id: article.id,
      centroid: profile,
      firstAt: article.publishedAt,
      latestAt: article.publishedAt,
      joining: [article],
    }),
  );
  const again: string[] = [];
  await mapPool(
    stories.filter((story) => story.joining.length > 0),
    4,
    async (story) => {
      if (await save(story, lease.holder)) lease.wrote.push(story.id);
      else again.push(...story.joining.map((article) => article.id));
    },
  );
  return again;
}

/** The last pass this process started: its passes queue here, so only processes poll the lease. */
let turn: Promise<unknown> = Promise.resolve();

/**
 * A pass over the articles not in a story yet (none: no pass, so a feed fetched again whose
 * articles are all joined costs one read), holding the story builder's lease (lease.ts), given
 * back with what it wrote.
 */
async function leased(articleIds: readonly string[]): Promise<string[]> {
  const { data } = await Articles.ArticleEntity.get(articleIds.map((id) => ({ id }))).go({
    consistent: true,
  });
  const articles = data.filter((article) => !article.storyId);
  if (articles.length === 0) return [];
  const pass = async () => {
    const lease = { ...(await Lease.acquire()), wrote: [] as string[] };
    try {
      return await joinOnce(articles, lease);
    } finally {
      await Lease.release(lease, lease.wrote.length > 0 ? lease.wrote : lease.written);
    }
  };
  const mine = turn.then(pass, pass);
  turn = mine.catch(() => undefined);
  return mine;
}

/**
 * Groups stored articles into stories: each joins the story of the same event or starts one.
 * Incremental (touches only the stories its articles join), idempotent (an article already in a
 * story is skipped), one bounded Query of candidates per JOIN_CHUNK articles. The import calls it
 * after storing.
 */
export async function joinArticles(articleIds: readonly string[]): Promise<void> {
  let pending = [...new Set(articleIds)];
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > JOIN_ATTEMPTS) {
      throw new Error(
        `Could not join ${pending.length} article(s) to their stories: they kept changing`,
      );
    }
    if (attempt > 1)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
    const again: string[] = [];
    for (let start = 0; start < pending.length; start += JOIN_CHUNK) {
      again.push(...(await leased(pending.slice(start, start + JOIN_CHUNK))));
    }
    pending = again;
  }
}

/**
 * Each article's story, by article id. An article in no story (alone, or not yet grouped) is a
 * story of one made from the article itself, with no read; the rest are one BatchGet.
 */
export async function ofArticles(
  articles: readonly Articles.Article[],
): Promise<Map<string, Story>> {
  const ids = [...new Set(articles.flatMap((article) => article.storyId ?? []))];
  const { data } =
    ids.length > 0 ? await StoryEntity.get(ids.map((id) => ({ id }))).go() : { data: [] };
  const found = new Map(data.map((item) => [item.id, storyOf(item)]));
  return new Map(
    articles.map((article) => [
      article.id,
      (article.storyId && found.get(article.storyId)) || storyOfOne(article),
    ]),
  );
}

/** One story by id. */
export async function byId(id: string): Promise<Story | undefined> {
  const { data } = await StoryEntity.get({ id }).go();
  return data ? storyOf(data) : undefined;
}

/** Deletes every story, a page at a time (with the articles they are made of); answers how many. */
export async function clearAll(): Promise<number> {
  let deleted = 0;
  let cursor: string | null = null;
  do {
    const page: { data: Pick<StoryItem, 'id'>[]; cursor: string | null } = await StoryEntity.query
      .recent({})
      .go({ cursor, limit: 250, attributes: ['id'] });
    await deleteAll(
      StoryEntity,
      page.data.map(({ id }) => ({ id })),
    );
    deleted += page.data.length;
    cursor = page.cursor;
  } while (cursor);
  return deleted;
}
