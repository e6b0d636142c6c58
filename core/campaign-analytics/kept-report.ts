// A range's figures kept between rollups, in the table, so any instance serving the page reads them
// with one GetItem instead of summing a day item per day shown. Views that find no figures of the
// rollups' current revision race for a claim: one computes and keeps them, the others wait for
// them (and compute for themselves only if the claimant dies). The figures are written only over
// an older revision's, so a view that computed before a rollup never replaces a newer view's.
import { isConditionFailure } from '#core/db';
import { KeptReportEntity } from './kept-report-entity';
import type { Filters } from './range-figures';

/** How long a view may compute a range's figures before another may take its place. */
export const CLAIM_MS = 10_000;
/** How often a view waiting for another's figures looks again. */
const WAIT_MS = 50;
/** Figures larger than this are computed by each view: an item holds at most 400 KB. */
export const MAX_KEPT_BYTES = 300_000;
/** Kept items expire a day after their last write; the rollup runs every 10 minutes. */
const KEPT_SECONDS = 86_400;

export type KeptRange = { from: string; to: string; filters: Filters };

const keyOf = ({ from, to, filters }: KeptRange) => ({
  from,
  to,
  filters: `${filters.utm ?? '*'}|${filters.vus ?? '*'}`,
});

const expiresAt = () => Math.floor(Date.now() / 1000) + KEPT_SECONDS;

/**
 * The figures of `range` at the rollups' `revision`: kept ones of that revision or a later one,
 * or `compute()`'s, kept for the views after. Waits at most two claims' time for another view.
 */
export async function keptFigures<T>(
  range: KeptRange,
  revision: number,
  compute: () => Promise<T>,
): Promise<T> {
  const key = keyOf(range);
  const giveUpAt = Date.now() + 2 * CLAIM_MS;
  for (let look = 0; ; look++) {
    // The first look may be stale; a view waiting on a claim reads what was written.
    const { data } = await KeptReportEntity.get(key).go({ consistent: look > 0 });
    if (data?.revision !== undefined && data.revision >= revision) {
      return data.figures === undefined ? compute() : (JSON.parse(data.figures) as T);
    }
    if (await claim(key, revision)) return computeAndKeep(key, revision, compute);
    if (Date.now() > giveUpAt) return compute();
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
}

/** Claims the computing of `revision`'s figures, unless they are kept or another holds a claim. */
async function claim(key: ReturnType<typeof keyOf>, revision: number): Promise<boolean> {
  const now = Date.now();
  try {
    await KeptReportEntity.upsert({
      ...key,
      claimedRevision: revision,
      claimedUntil: new Date(now + CLAIM_MS).toISOString(),
      expiresAt: expiresAt(),
    })
      .where(
        (attr, op) =>
          `(${op.notExists(attr.revision)} OR ${op.lt(attr.revision, revision)}) AND ` +
          `(${op.notExists(attr.claimedUntil)} OR ${op.lt(attr.claimedUntil, new Date(now).toISOString())} OR ${op.lt(attr.claimedRevision, revision)})`,
      )
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function computeAndKeep<T>(
  key: ReturnType<typeof keyOf>,
  revision: number,
  compute: () => Promise<T>,
): Promise<T> {
  const figures = await compute();
  const json = JSON.stringify(figures);
  const fits = Buffer.byteLength(json) <= MAX_KEPT_BYTES;
  const kept = { revision, computedAt: new Date().toISOString(), expiresAt: expiresAt() };
  const write = fits
    ? KeptReportEntity.update(key).set({ ...kept, figures: json })
    : KeptReportEntity.update(key).set(kept).remove(['figures']);
  try {
    // Only over an older revision's: a view that computed before a rollup leaves newer figures.
    await write
      .where((attr, op) => `${op.notExists(attr.revision)} OR ${op.lt(attr.revision, revision)}`)
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return figures;
}
