// Reading a reader's feed list (ADR 0039): the page a reader asks for, at any offset and for any
// choice of ratings, from the build their record names. The reader's record (read by their
// session anyway) holds the stories per label and where every hundredth story of a band sits
// (ADR 0066), so a page knows which bands it starts in and reads only those: one bounded Query per
// run of shown bands it touches (one for the default view), reading at most FEED_MARK_EVERY items
// besides the page's own, and more only while a rebuild's unpublished or leaving entries lie in
// the range.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import { parse } from '#core/common';
import * as Users from '#core/users';
import { FeedStoryEntity } from './entities';
import { FEED_MAX_STORIES } from './build';
import { requestBuild } from './job';
import { bandEnd, startOf } from './list-order';
import type { OtherSource } from './story-entries';
import { bandOf } from './taste';

/** Stories a page shows (the spec leaves the page size open: ADR 0039). */
export const PAGE_SIZE = 20;
/** Most stories one read answers (the API's `limit`). */
export const PAGE_LIMIT = 100;

/**
 * The spec's 'Relevant' and 'Very Relevant' are the two best labels of the product's scale
 * (ADR 0039): the feed's filter shows these unless the reader picks others.
 */
export const DEFAULT_RATINGS: RelevanceLabel[] = ['Very Relevant', 'Quite Relevant'];

export const FEED_MESSAGES = {
  badOffset: `An offset is a whole number from 0 to ${FEED_MAX_STORIES}`,
  badLimit: `A limit is a whole number from 1 to ${PAGE_LIMIT}`,
  badRating: `A rating is one of: ${RELEVANCE_LABELS.join(', ')}`,
} as const;

/** A whole number, as a number or as a query string's digits. */
const Whole = (message: string, max: number) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))], message),
    v.integer(message),
    v.minValue(0, message),
    v.maxValue(max, message),
  );

export const PageInput = v.object({
  offset: v.optional(Whole(FEED_MESSAGES.badOffset, FEED_MAX_STORIES), 0),
  limit: v.optional(
    v.pipe(Whole(FEED_MESSAGES.badLimit, PAGE_LIMIT), v.minValue(1, FEED_MESSAGES.badLimit)),
    PAGE_SIZE,
  ),
  /** The ratings shown; none means every rating. */
  ratings: v.optional(v.array(v.picklist(RELEVANCE_LABELS, FEED_MESSAGES.badRating)), []),
});

export type FeedReader = Pick<Users.User, 'id' | 'feedBuild' | 'feedCounts' | 'feedMarks'>;

export type FeedStory = {
  articleId: string;
  title: string;
  source: string;
  link: string;
  image?: string;
  excerpt: string;
  publishedAt: string;
  label: RelevanceLabel;
  /** The model's label, when the reader's mutes or dislikes lowered it. */
  modelLabel?: RelevanceLabel;
  relevantClues: string[];
  reason?: string;
  feedback?: 'like' | 'dislike';
  /** The story the entry leads (ADR 0063): its other sources and how many it has in all. */
  storyId?: string;
  sourceCount: number;
  /** The other outlets that tell it ("also covered by N sources"). */
  otherSourceCount: number;
  alsoCoveredBy: OtherSource[];
  /** Sources the story gained since the reader's list last held it ('updated: 2 new sources'). */
  grewBy?: number;
};

/** How many stories of each label the reader's list holds. */
export function countsOf(reader: FeedReader): Record<RelevanceLabel, number> {
  return Object.fromEntries(
    RELEVANCE_LABELS.map((label, index) => [label, reader.feedCounts?.[index] ?? 0]),
  ) as Record<RelevanceLabel, number>;
}

/**
 * The ratings a feed shows when the reader chose none: the two best labels, or, when the reader
 * has no story with either, the best label they have, so a reader with stories never opens an
 * empty default.
 */
export function defaultRatings(reader: FeedReader): RelevanceLabel[] {
  const counts = countsOf(reader);
  if (DEFAULT_RATINGS.some((label) => counts[label] > 0)) return DEFAULT_RATINGS;
  const best = [...RELEVANCE_LABELS].reverse().find((label) => counts[label] > 0);
  return best ? [best] : DEFAULT_RATINGS;
}

/**
 * A page of the reader's list: the stories with these ratings (all when none), from `offset`, at
 * most `limit`, and how many there are in all.
 */
export async function page(
  reader: FeedReader,
  input: v.InferInput<typeof PageInput>,
): Promise<{ stories: FeedStory[]; count: number; rebuilding?: true; list: FeedReader }> {
  const asked = parse(PageInput, input);
  const read = await pageOf(reader, asked);
  if (!read.short) return { ...read.page, list: reader };
  // A build published a newer list after the reader was read and took out entries of the one they
  // name: the page is read again from the list the reader's record names now, and `list` says so
  // (its counts are the ones to show with it).
  const current = await Users.byId(reader.id);
  if (!current?.feedBuild || current.feedBuild === reader.feedBuild) {
    return { ...read.page, list: reader };
  }
  return { ...(await pageOf(current, asked)).page, list: current };
}

/**
 * The page of the list `reader` names, and whether it holds fewer stories than the list's counts
 * promise: the mark of a list since replaced.
 */
async function pageOf(
  reader: FeedReader,
  { offset, limit, ratings }: v.InferOutput<typeof PageInput>,
): Promise<{ page: { stories: FeedStory[]; count: number; rebuilding?: true }; short: boolean }> {
  const counts = countsOf(reader);
  const shown = ratings.length > 0 ? new Set(ratings) : new Set(RELEVANCE_LABELS);
  const count = RELEVANCE_LABELS.reduce(
    (sum, label) => sum + (shown.has(label) ? counts[label] : 0),
    0,
  );
  const build = reader.feedBuild;
  const stories: FeedStory[] = [];
  if (!build) return { page: { stories, count: 0 }, short: false };
  // A list written before its entries had places (ADR 0066) cannot be read by them: it is built
  // anew at once, and the reader is told it is being updated meanwhile.
  if (!reader.feedMarks) {
    await requestBuild(reader.id);
    return { page: { stories, count, rebuilding: true }, short: false };
  }
  let skip = offset;
  for (const run of runsOf(shown, counts)) {
    if (stories.length >= limit) break;
    if (skip >= run.stories) {
      skip -= run.stories;
      continue;
    }
    // Where the page starts: the band of the run that holds the skip-th story.
    let start = run.bands[0]!;
    for (const band of run.bands) {
      start = band;
      if (skip < band.stories) break;
      skip -= band.stories;
    }
    const found = await shownFrom(reader.id, build, {
      ...startOf(reader.feedMarks ?? [], start.band, skip),
      to: bandEnd(run.bands.at(-1)!.band),
      wanted: limit - stories.length,
    });
    stories.push(...found.map(storyOf));
    skip = 0;
  }
  const promised = Math.min(limit, Math.max(0, count - offset));
  return { page: { stories, count }, short: stories.length < promised };
}

/**
 * The `wanted` entries build `build` shows from key `from` (after the `before` first) up to key `to`.
 * One Query, unless entries of another build (being written or taken out) fill part of it.
 */
async function shownFrom(
  userId: string,
  build: string,
  { from, before, to, wanted }: { from: string; before: number; to: string; wanted: number },
) {
  const found: EntityItem<typeof FeedStoryEntity>[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: EntityItem<typeof FeedStoryEntity>[]; cursor: string | null } =
      await FeedStoryEntity.query
        .byPosition({ userId })
        .between({ order: from }, { order: to })
        .where(
          (attr, op) =>
            `${op.lte(attr.since, build)} AND (${op.notExists(attr.until)} OR ${op.gt(attr.until, build)})`,
        )
        .go({ cursor, limit: before + wanted - found.length });
    found.push(...page.data);
    cursor = page.cursor;
  } while (cursor && found.length < before + wanted);
  return found.slice(before, before + wanted);
}

type Run = { bands: { band: number; stories: number }[]; stories: number };

/**
 * The shown bands, best first, in runs one Query can read: a run goes on across a band that is
 * shown or holds no story, and ends at a hidden band with stories. The default view is one run.
 */
function runsOf(shown: Set<RelevanceLabel>, counts: Record<RelevanceLabel, number>): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  const byBand = [...RELEVANCE_LABELS].sort((a, b) => bandOf(a) - bandOf(b));
  for (const label of byBand) {
    const stories = counts[label];
    if (!shown.has(label)) {
      if (stories > 0) current = undefined;
      continue;
    }
    if (stories === 0) continue;
    if (!current) runs.push((current = { bands: [], stories: 0 }));
    current.bands.push({ band: bandOf(label), stories });
    current.stories += stories;
  }
  return runs;
}

function storyOf(item: EntityItem<typeof FeedStoryEntity>): FeedStory {
  const {
    userId: _,
    order: __,
    since: ___,
    until: ____,
    grewAt: _____,
    relevantClues,
    sourceCount,
    otherSourceCount,
    alsoCoveredBy,
    ...story
  } = item;
  return {
    ...story,
    relevantClues: relevantClues ?? [],
    sourceCount: sourceCount ?? 1,
    // An entry written before outlets were counted says what it said then.
    otherSourceCount: otherSourceCount ?? Math.max(0, (sourceCount ?? 1) - 1),
    alsoCoveredBy: alsoCoveredBy ?? [],
  };
}
