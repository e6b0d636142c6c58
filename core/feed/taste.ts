// How a reader's feedback moves stories in their feed list (ADR 0039): a rank penalty, not a
// model's whim. Each like of a story counts +1 for its source and for each of its topics, each
// dislike -1; a story's adjustment is its source's count plus half its topics' mean count,
// bounded: a story all of whose topics were disliked once moves half as far as one from a
// disliked source, so one dislike never sinks every story about the reader's own subject.
// Within a label, stories are read by adjustment, then newest first: a story from a disliked
// source falls below the others of its label, one from a liked source rises. The label is the
// model's judgement, lowered only by what the reader said they do not want (negative.ts), which
// also says how far a story sinks within its label.
import type { RelevanceLabel } from '#core/ai';
import { RELEVANCE_LABELS } from '#core/ai';

export type FeedbackKind = 'like' | 'dislike';

export type Taste = { sources: Map<string, number>; topics: Map<string, number> };

export const SOURCE_WEIGHT = 1;
export const TOPIC_WEIGHT = 0.5;
/** No amount of feedback moves a story further than this. */
export const MAX_ADJUSTMENT = 3;

const sourceKey = (source: string) => source.trim().toLowerCase();

/** The reader's taste from their feedback: per source and per topic, likes minus dislikes. */
export function tasteOf(
  feedback: { kind: FeedbackKind; source: string; topics: string[] }[],
): Taste {
  const taste: Taste = { sources: new Map(), topics: new Map() };
  for (const { kind, source, topics } of feedback) {
    const sign = kind === 'like' ? 1 : -1;
    const key = sourceKey(source);
    taste.sources.set(key, (taste.sources.get(key) ?? 0) + sign);
    for (const topic of new Set(topics)) {
      taste.topics.set(topic, (taste.topics.get(topic) ?? 0) + sign);
    }
  }
  return taste;
}

/** How far the reader's feedback moves a story within its label: positive rises, negative falls. */
export function adjustment(story: { source: string; topics: string[] }, taste: Taste): number {
  const bySource = (taste.sources.get(sourceKey(story.source)) ?? 0) * SOURCE_WEIGHT;
  const topics = [...new Set(story.topics)];
  const byTopics =
    (topics.reduce((sum, topic) => sum + (taste.topics.get(topic) ?? 0), 0) /
      Math.max(1, topics.length)) *
    TOPIC_WEIGHT;
  return Math.max(-MAX_ADJUSTMENT, Math.min(MAX_ADJUSTMENT, bySource + byTopics));
}

/** A label's band in the list: 0 for the best label of the scale. */
export const bandOf = (label: RelevanceLabel): number =>
  RELEVANCE_LABELS.length - 1 - RELEVANCE_LABELS.indexOf(label);

/** A story in reading order: its band, its place in it, and how far taste and sinks moved it. */
export type Ranked<T> = T & { band: number; position: number; adjusted: number };

/**
 * The feed's reading order: best label first; within a label, by the reader's feedback less its
 * sink, then newest published, then by article id so the order never depends on the read.
 */
export function readingOrder<
  T extends {
    label: RelevanceLabel;
    source: string;
    topics: string[];
    publishedAt: string;
    articleId: string;
    sink?: number;
  },
>(stories: T[], taste: Taste): Ranked<T>[] {
  const sorted = stories
    .map((story) => ({
      story,
      band: bandOf(story.label),
      adjusted: adjustment(story, taste) - (story.sink ?? 0),
    }))
    .sort(
      (a, b) =>
        a.band - b.band ||
        b.adjusted - a.adjusted ||
        b.story.publishedAt.localeCompare(a.story.publishedAt) ||
        a.story.articleId.localeCompare(b.story.articleId),
    );
  const next = new Map<number, number>();
  return sorted.map(({ story, band, adjusted }) => {
    const position = next.get(band) ?? 0;
    next.set(band, position + 1);
    return { ...story, band, position, adjusted };
  });
}
