// Streams: the feeds articles come from. Add one (once per URL), import one, or import every
// stream that is due; a feed's failure stays with that feed and, repeated, holds it back for a
// while. An operator may pause a stream (imports skip it until it is resumed) or remove it.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Articles from '#core/articles';
import { fn, freeText, mapPool, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { deleteAll, isConditionFailure } from '#core/db';
import * as Feeds from '#core/feeds';
import type { JobContext } from '#core/jobs';
import * as Stories from '#core/stories';
import { StreamEntity } from './entity';
import { StreamUrlEntity } from './stream-url-entity';

export { StreamEntity, StreamUrlEntity };
export type Stream = EntityItem<typeof StreamEntity>;
export type ImportContext = Pick<JobContext, 'log' | 'progress'>;
export type ImportResult = { found: number; new: number; duplicates: number; notModified: boolean };
/** `joinStories: false` only for bench:import, which measures what grouping into stories costs. */
export type ImportOptions = { joinStories?: boolean };
export type ImportSummary = {
  feeds: number;
  imported: number;
  notModified: number;
  failed: number;
  /** Held back after repeated failures (backoff). */
  skipped: number;
  /** Paused or removed by an operator, before the run or while it ran. */
  paused: number;
  newArticles: number;
  duplicates: number;
  failures: { streamId: string; name: string; url: string; error: string }[];
};

export const IMPORT_CONCURRENCY = 8;
/** Articles of one feed stored at once; with IMPORT_CONCURRENCY feeds, 32 transactions in flight. */
const STORE_CONCURRENCY = 4;
export const BACKOFF_AFTER_FAILURES = 3;
const BACKOFF_BASE_MS = 5 * 60_000;
const BACKOFF_MAX_MS = 24 * 3_600_000;

const NAME_MESSAGE = 'Please add a stream name';
const URL_MESSAGE = 'Please add a valid feed URL';

export const StreamInput = v.object({
  name: v.pipe(
    freeText({
      max: 100,
      tooLong: 'A stream name has at most 100 characters',
      missing: NAME_MESSAGE,
    }),
    v.nonEmpty(NAME_MESSAGE),
  ),
  url: v.pipe(
    v.string(URL_MESSAGE),
    v.trim(),
    v.check((url) => /^https?:\/\//i.test(url) && !!Feeds.canonicalUrl(url), URL_MESSAGE),
    v.transform((url) => Feeds.canonicalUrl(url)!),
  ),
});

const now = () => new Date().toISOString();

export async function byId(id: string): Promise<Stream | undefined> {
  const { data } = await StreamEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/** The stream of a feed URL (any spelling of it). */
export async function byUrl(url: string): Promise<Stream | undefined> {
  const canonical = Feeds.canonicalUrl(url);
  if (!canonical) return undefined;
  const { data: claim } = await StreamUrlEntity.get({ url: canonical }).go({ consistent: true });
  return claim ? byId(claim.streamId) : undefined;
}

/** Every stream, by name. */
export async function list(): Promise<Stream[]> {
  const { data } = await StreamEntity.query.all({}).go({ pages: 'all' });
  return data;
}

/** Sets the first-scoring flag: the stream was matched against the audiences. */
export async function markFirstScoring(id: string): Promise<void> {
  await StreamEntity.patch({ id })
    .set({ firstScoring: true })
    .go()
    .catch((error: unknown) => {
      // Deleted meanwhile (Clear table): nothing to flag.
      if (!isConditionFailure(error)) throw error;
    });
}

function urlTaken(owner: Stream): VisibleError {
  return new VisibleError(
    'stream.url_taken',
    `This feed URL is already added as "${owner.name}"`,
    409,
  );
}

/** Refuses a feed URL some stream already has (any spelling), naming that stream; changes nothing. */
export const assertNew = fn(StreamInput, async ({ url }): Promise<void> => {
  const owner = await byUrl(url);
  if (owner) throw urlTaken(owner);
});

/**
 * Adds a stream once per feed URL. The same name and URL again answers with the stream already
 * added (a retried job goes on where it stopped); another name for a known URL is refused, so a
 * typed name is never silently dropped.
 */
export const create = fn(StreamInput, async ({ name, url }): Promise<Stream> => {
  const sameOrRefused = (owner: Stream) => {
    if (owner.name !== name) throw urlTaken(owner);
    return owner;
  };
  const { data: claim } = await StreamUrlEntity.get({ url }).go({ consistent: true });
  if (claim) {
    const owner = await byId(claim.streamId);
    if (owner) return sameOrRefused(owner);
    // An interrupted clearAll removed the stream but not its claim.
    await StreamUrlEntity.delete({ url })
      .where((attr, op) => op.eq(attr.streamId, claim.streamId))
      .go()
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
  const stream: Stream = {
    id: ulid(),
    name,
    url,
    consecutiveFailures: 0,
    firstScoring: false,
    createdAt: now(),
  };
  const result = await createWriteTransaction(
    { entity: StreamEntity, urlClaim: StreamUrlEntity },
    ({ entity, urlClaim }) => [
      entity.create(stream).commit(),
      urlClaim.create({ url, streamId: stream.id }).commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true };
      throw error;
    });
  if (!result.canceled) return stream;
  // Another request added the same URL a moment ago.
  const raced = await byUrl(url);
  if (raced) return sameOrRefused(raced);
  throw new VisibleError('stream.changed', 'This feed was just changed. Please try again.', 409);
});

function backoffMs(failures: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** (failures - BACKOFF_AFTER_FAILURES), BACKOFF_MAX_MS);
}

/** A stream deleted while it was being imported has nothing left to record on. */
function ignoreRemoved(error: unknown): void {
  if (!isConditionFailure(error)) throw error;
}

async function recordSuccess(
  stream: Stream,
  result: ImportResult,
  validators?: { etag?: string; lastModified?: string },
): Promise<void> {
  const stale = validators
    ? (['etag', 'lastModified'] as const).filter((name) => !validators[name])
    : [];
  await StreamEntity.patch({ id: stream.id })
    .set({
      lastImportAt: now(),
      lastResult: JSON.stringify(result),
      consecutiveFailures: 0,
      ...(validators?.etag && { etag: validators.etag }),
      ...(validators?.lastModified && { lastModified: validators.lastModified }),
    })
    .remove(['lastError', 'backoffUntil', ...stale])
    .go()
    .catch(ignoreRemoved);
}

/** Counts the failure; from the third in a row on, pauses the stream (5 min, doubling, ≤ 24 h). */
async function recordFailure(stream: Stream, error: Feeds.FeedError): Promise<void> {
  const updated = await StreamEntity.patch({ id: stream.id })
    .set({ lastImportAt: now(), lastError: error.message })
    .add({ consecutiveFailures: 1 })
    .go({ response: 'all_new' })
    .catch(ignoreRemoved);
  const failures = updated?.data.consecutiveFailures ?? 0;
  if (failures < BACKOFF_AFTER_FAILURES) return;
  await StreamEntity.patch({ id: stream.id })
    .set({ backoffUntil: new Date(Date.now() + backoffMs(failures)).toISOString() })
    .where((attr, op) => op.eq(attr.consecutiveFailures, failures))
    .go()
    .catch(ignoreRemoved);
}

/**
 * Fetches the stream (conditionally) and stores its new articles. Fetch and parse failures are
 * the feed's: they are recorded on the stream, then thrown. Anything else (the table) is ours and
 * is thrown without touching the stream's failure count.
 */
async function importFeed(
  stream: Stream,
  {
    onStoring,
    joinStories = true,
  }: ImportOptions & { onStoring?: (count: number) => Promise<void> },
): Promise<ImportResult> {
  let fetched: Extract<Feeds.FetchedFeed, { kind: 'ok' }>;
  let feed: Feeds.ParsedFeed;
  try {
    const response = await Feeds.fetchFeed(stream.url, {
      etag: stream.etag,
      lastModified: stream.lastModified,
    });
    if (response.kind === 'not-modified') {
      const result = { found: 0, new: 0, duplicates: 0, notModified: true };
      await recordSuccess(stream, result);
      return result;
    }
    fetched = response;
    feed = Feeds.parseFeed(fetched.body, fetched.contentType);
  } catch (error) {
    if (Feeds.isFeedError(error)) await recordFailure(stream, error);
    throw error;
  }

  const source = { streamId: stream.id, streamName: stream.name, feedUrl: fetched.finalUrl };
  const seen = new Set<string>();
  const articles = feed.items.flatMap((item) => {
    const article = Feeds.normaliseItem(item, source);
    return article ? [{ ...article, fingerprint: Feeds.fingerprint(article) }] : [];
  });
  // The same story twice in one feed is stored once, like across feeds.
  const unique = articles.filter(({ canonicalUrl, fingerprint }) => {
    if (seen.has(canonicalUrl) || seen.has(fingerprint)) return false;
    seen.add(canonicalUrl).add(fingerprint);
    return true;
  });
  // A re-fetched feed is mostly old items: one batch read spares a failed transaction each.
  const known = await Articles.idsByUrl(unique.map(({ canonicalUrl }) => canonicalUrl));
  const fresh = unique.filter(({ canonicalUrl }) => !known.has(canonicalUrl));
  await onStoring?.(fresh.length);
  const outcomes = await mapPool(fresh, STORE_CONCURRENCY, (article) =>
    Articles.storeIfNew(article),
  );
  // Before the validators are saved, and with the feed's known articles too: a run that stopped
  // after storing fetches the feed again and joins them then (one already joined is skipped).
  if (joinStories) {
    const storedIds = await Articles.idsByUrl(fresh.map(({ canonicalUrl }) => canonicalUrl));
    await Stories.joinArticles([...known.values(), ...storedIds.values()]);
  }
  const stored = outcomes.filter((outcome) => outcome === 'new').length;
  const result = {
    found: feed.items.length,
    new: stored,
    duplicates: articles.length - stored,
    notModified: false,
  };
  // Validators are saved only now, so an interrupted import fetches the whole feed again.
  await recordSuccess(stream, result, { etag: fetched.etag, lastModified: fetched.lastModified });
  return result;
}

/** Imports one stream now, whatever its backoff (an operator asked for it). */
export async function importStream(stream: Stream, context: ImportContext): Promise<ImportResult> {
  const result = await importFeed(stream, {
    onStoring: (count) =>
      context.progress(0.5, `Storing ${count} new article(s) from ${stream.name}`),
  });
  context.log.info(`Imported ${stream.name}`, { streamId: stream.id, url: stream.url, ...result });
  return result;
}

/**
 * Imports every stream neither paused nor held back by backoff, IMPORT_CONCURRENCY at a time. Each
 * stream is read again just before its fetch, so one paused or removed while the run goes on is
 * skipped if its fetch has not begun (a fetch under way finishes; for a removed stream nothing is
 * then recorded, see `ignoreRemoved`).
 */
export async function importAll(
  context: ImportContext,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const streams = await list();
  const at = now();
  const active = streams.filter((stream) => !stream.pausedAt);
  const due = active.filter((stream) => !stream.backoffUntil || stream.backoffUntil <= at);
  const summary: ImportSummary = {
    feeds: streams.length,
    imported: 0,
    notModified: 0,
    failed: 0,
    skipped: active.length - due.length,
    paused: streams.length - active.length,
    newArticles: 0,
    duplicates: 0,
    failures: [],
  };
  let done = 0;
  await mapPool(due, IMPORT_CONCURRENCY, async (listed) => {
    try {
      const stream = await byId(listed.id);
      if (!stream || stream.pausedAt) {
        summary.paused += 1;
        context.log.info(
          `Skipped ${listed.name}: ${stream ? 'paused' : 'removed'} during the run`,
          {
            streamId: listed.id,
          },
        );
      } else {
        const result = await importFeed(stream, options);
        summary[result.notModified ? 'notModified' : 'imported'] += 1;
        summary.newArticles += result.new;
        summary.duplicates += result.duplicates;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      summary.failed += 1;
      summary.failures.push({
        streamId: listed.id,
        name: listed.name,
        url: listed.url,
        error: message,
      });
      context.log.error(`Could not import ${listed.name}: ${message}`, {
        streamId: listed.id,
        url: listed.url,
        // A feed's own failure needs no stack trace; anything else is a bug or an outage.
        ...(Feeds.isFeedError(error) ? { code: error.code } : { error }),
      });
    }
    done += 1;
    await context.progress(done / due.length, `${done} of ${due.length} feeds imported`);
  });
  const { failures: _failures, ...totals } = summary;
  context.log.info('Imported streams', totals);
  return summary;
}

const STREAM_GONE = 'This stream no longer exists';
/** A stream's id (a ULID), as a form or a link sends it. */
export const StreamIdPattern = /^[0-9A-Z]{26}$/;
const StreamId = v.pipe(v.string(STREAM_GONE), v.regex(StreamIdPattern, STREAM_GONE));
const gone = () => new VisibleError('stream.not_found', STREAM_GONE, 404);

/** Pauses a stream that is not paused: imports skip it until it is resumed. */
export const pause = fn(StreamId, async (id): Promise<Stream> => {
  try {
    const { data } = await StreamEntity.patch({ id })
      .set({ pausedAt: now() })
      .where((attr, op) => op.notExists(attr.pausedAt))
      .go({ response: 'all_new' });
    return data as Stream;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (!(await byId(id))) throw gone();
    throw new VisibleError('stream.already_paused', 'This stream is already paused', 409);
  }
});

/** Resumes a paused stream: the next import fetches it again. */
export const resume = fn(StreamId, async (id): Promise<Stream> => {
  try {
    const { data } = await StreamEntity.patch({ id })
      .remove(['pausedAt'])
      .where((attr, op) => op.exists(attr.pausedAt))
      .go({ response: 'all_new' });
    return data as Stream;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (!(await byId(id))) throw gone();
    throw new VisibleError('stream.not_paused', 'This stream is not paused', 409);
  }
});

/**
 * Removes a stream and its URL claim in one transaction, conditioned on the stream as just read
 * (still there, with the same feed URL, and its claim still its own); the articles it brought
 * stay. An import fetching it at that moment records nothing more on it.
 */
export const remove = fn(StreamId, async (id): Promise<Stream> => {
  const stream = await byId(id);
  if (!stream) throw gone();
  const result = await createWriteTransaction(
    { entity: StreamEntity, urlClaim: StreamUrlEntity },
    ({ entity, urlClaim }) => [
      entity
        .delete({ id })
        .where((attr, op) => op.eq(attr.url, stream.url))
        .commit(),
      urlClaim
        .delete({ url: stream.url })
        .where((attr, op) => op.eq(attr.streamId, id))
        .commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true };
      throw error;
    });
  if (!result.canceled) return stream;
  if (!(await byId(id))) throw gone();
  throw new VisibleError('stream.changed', 'This feed was just changed. Please try again.', 409);
});

/** Deletes every stream and its URL claim; returns how many streams went. */
export async function clearAll(): Promise<number> {
  const streams = await list();
  // Streams first: a claim left behind by an interruption is cleaned up by `create`.
  await deleteAll(
    StreamEntity,
    streams.map(({ id }) => ({ id })),
  );
  await deleteAll(
    StreamUrlEntity,
    streams.map(({ url }) => ({ url })),
  );
  return streams.length;
}
