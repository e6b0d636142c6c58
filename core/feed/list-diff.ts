// What a rebuild writes to a reader's feed list (ADR 0066): the new list compared with the stored
// one, so only the entries that are new, moved or changed are put and only those that left (or
// moved) are taken out. The published build keeps reading its own list meanwhile: a new or moved
// entry is put from the new build on (`since`), one that leaves stays until it (`until`, deleted
// once the new build is published), and one whose place holds is rewritten where it is.
import type { EntityItem } from 'electrodb';
import { deleteAll } from '#core/db';
import { FeedStoryEntity } from './entities';

export type Entry = EntityItem<typeof FeedStoryEntity>;
/** An entry as a build makes it, before it is given the builds that show it. */
export type NewEntry = Omit<Entry, 'since' | 'until'>;

/** Whether the list published as `build` shows the entry. */
export const shownIn = (entry: Pick<Entry, 'since' | 'until'>, build: string | undefined) =>
  !!build && entry.since <= build && (!entry.until || entry.until > build);

/** Every entry of the reader's list, of any build, read as written (the diff must see them all). */
export async function storedEntries(userId: string): Promise<Entry[]> {
  const { data } = await FeedStoryEntity.query
    .byPosition({ userId })
    .go({ pages: 'all', consistent: true });
  return data;
}

/** What a reader sees of an entry: two entries with the same are the same. */
function shownOf(entry: NewEntry): string {
  return JSON.stringify([
    entry.articleId,
    entry.title,
    entry.source,
    entry.link,
    entry.image,
    entry.excerpt,
    entry.publishedAt,
    entry.label,
    entry.modelLabel,
    entry.relevantClues ?? [],
    entry.reason,
    entry.feedback,
    entry.storyId,
    entry.sourceCount,
    entry.otherSourceCount,
    (entry.alsoCoveredBy ?? []).map(({ source, link, title }) => [source, link, title]),
    entry.grewBy,
    entry.grewAt,
  ]);
}

export type ListChanges = {
  /** Entries to put before the build is published: new, moved, changed in place, taken out. */
  puts: Entry[];
  /** Entries no build shows (left by a build that never published): deleted at once. */
  stale: Entry[];
  /** Entries the build takes out: deleted once it is published. */
  leaving: Entry[];
};

/**
 * The writes that turn the list `published` shows into `next` as build `build`, given every stored
 * entry. Nothing to write when the lists are the same.
 */
export function changesOf(
  stored: Entry[],
  next: NewEntry[],
  published: string | undefined,
  build: string,
): ListChanges {
  const byOrder = new Map(stored.map((entry) => [entry.order, entry]));
  const wanted = new Set(next.map((entry) => entry.order));
  const puts: Entry[] = [];
  for (const entry of next) {
    const before = byOrder.get(entry.order);
    if (!before || !shownIn(before, published)) puts.push({ ...entry, since: build });
    else if (before.until || shownOf(before) !== shownOf(entry))
      puts.push({ ...entry, since: before.since });
  }
  const stale: Entry[] = [];
  const leaving: Entry[] = [];
  for (const entry of stored) {
    if (wanted.has(entry.order)) continue;
    if (!shownIn(entry, published)) stale.push(entry);
    else {
      leaving.push(entry);
      puts.push({ ...entry, until: build });
    }
  }
  return { puts, stale, leaving };
}

export const isEmpty = ({ puts, stale, leaving }: ListChanges) =>
  puts.length + stale.length + leaving.length === 0;

/** Puts the entries, 25 to a call, retrying what DynamoDB left unprocessed. */
export async function putEntries(entries: Entry[]): Promise<void> {
  let pending = entries;
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error(`Could not write ${pending.length} feed item(s)`);
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    const { unprocessed } = await FeedStoryEntity.put(pending).go();
    pending = unprocessed as Entry[];
  }
}

/** Deletes the entries, 25 to a call. */
export async function deleteEntries(entries: Entry[]): Promise<void> {
  await deleteAll(
    FeedStoryEntity,
    entries.map(({ userId, order }) => ({ userId, order })),
  );
}
