// Where a story's entry sits in a reader's feed list (ADR 0066): a key made of what orders it (its
// band, whether it just grew, the reader's taste for it, how new it is, its article), so an entry
// keeps its key while nothing about it changes and a rebuild rewrites only the entries that moved.
// Keys sort in reading order; a page deep in a band starts from a mark (every FEED_MARK_EVERY-th
// key of each band, kept on the reader's record) and reads at most that many stories more.

/** Every this many stories of a band, the reader's record keeps the key a page can start from. */
export const FEED_MARK_EVERY = 100;
/** Above every key: the end of a band's range. */
const AFTER_ALL = '\uffff';
/** Feedback and sinks move a story by far less than this either way. */
const ADJUSTED_RANGE = 1_000;
const ADJUSTED_DIGITS = 10;
const LATEST_TIME = 9_999_999_999_999;

export type Placed = {
  band: number;
  /** The story grew since the list last held it: the top of its band, once. */
  moved: boolean;
  /** The reader's taste for it less its sink (taste.ts): higher reads first. */
  adjusted: number;
  publishedAt: string;
  articleId: string;
};

/** The entry's key: band first, then grown ones, higher taste, newer, and the article's id. */
export function orderOf({ band, moved, adjusted, publishedAt, articleId }: Placed): string {
  const bounded = Math.max(-ADJUSTED_RANGE, Math.min(ADJUSTED_RANGE, adjusted));
  const taste = Math.round((ADJUSTED_RANGE - bounded) * 1e6);
  const time = LATEST_TIME - (Date.parse(publishedAt) || 0);
  return [
    band,
    moved ? 0 : 1,
    String(taste).padStart(ADJUSTED_DIGITS, '0'),
    String(time).padStart(13, '0'),
    articleId,
  ].join('#');
}

/** The first key a band can hold, and the key after its last. */
export const bandStart = (band: number) => `${band}#`;
export const bandEnd = (band: number) => `${band}#${AFTER_ALL}`;

/** The marks of a list whose keys are `orders`, sorted: every FEED_MARK_EVERY-th of each band. */
export function marksOf(orders: string[]): string[] {
  const seen = new Map<string, number>();
  return orders.filter((order) => {
    const band = order.slice(0, order.indexOf('#'));
    const index = seen.get(band) ?? 0;
    seen.set(band, index + 1);
    return index > 0 && index % FEED_MARK_EVERY === 0;
  });
}

/**
 * Where a read of the band's `skip`-th story starts: the nearest mark at or before it, and how many
 * stories from there come before it.
 */
export function startOf(
  marks: string[],
  band: number,
  skip: number,
): { from: string; before: number } {
  const ofBand = marks.filter((mark) => mark.startsWith(bandStart(band)));
  const mark = Math.min(Math.floor(skip / FEED_MARK_EVERY), ofBand.length);
  return mark === 0
    ? { from: bandStart(band), before: skip }
    : { from: ofBand[mark - 1]!, before: skip - mark * FEED_MARK_EVERY };
}
