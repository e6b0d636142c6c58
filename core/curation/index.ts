// Curation: an audience's best recent scored articles become picks, picked posts and a content
// card ('Pick best content for descriptors'), and the newsletter reads the picks back.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { addUsage, NO_USAGE } from '#core/ai';
import * as Audiences from '#core/audiences';
import { fn } from '#core/common';
import * as Jobs from '#core/jobs';
import { PickEntity } from './entity';

export { PickEntity };
export { PickedArticleEntity } from './picked-article-entity';
export { PickRunEntity, PICK_OUTCOMES } from './pick-run-entity';
export {
  pickForAudience,
  usableChoice,
  AUTOMATION_ID,
  NO_CANDIDATES,
  type AudiencePicks,
  type PickOptions,
  type PickRun,
} from './pick';
export { CANDIDATES, RECENT_SCORES, LOWEST_PICKED_LABEL } from './candidates';
export { CURATOR } from './post';
export { contentCardIdFor, postIdFor } from './ids';
import { pickForAudience } from './pick';

export type Pick = EntityItem<typeof PickEntity>;

export type PickBestContentOutput = {
  audiences: number;
  cards: number;
  picks: number;
  skipped: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when a model's price is unknown (an OpenAI-compatible server). */
  costUsd: number | null;
};

/** 'Pick best content for descriptors': one card per active audience with good candidates. */
export const pickBestContent = Jobs.defineJob({
  name: 'pick-best-content',
  title: 'Picking the best content',
  slot: 'curation',
  input: v.object({}),
  async run(_input, { processId, log, progress }): Promise<PickBestContentOutput> {
    const audiences = (await Audiences.list()).filter((audience) => audience.state === 'active');
    const output: PickBestContentOutput = {
      audiences: audiences.length,
      cards: 0,
      picks: 0,
      skipped: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
    };
    let usage = NO_USAGE;
    for (const [index, audience] of audiences.entries()) {
      const result = await pickForAudience(audience, { processId, log });
      if (result.outcome === 'picked') {
        output.cards++;
        output.picks += result.articleIds.length;
      } else {
        output.skipped++;
        log.info(result.note, { audienceId: audience.id });
      }
      usage = addUsage(usage, result.usage);
      await progress((index + 1) / audiences.length, result.note);
    }
    return {
      ...output,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      costUsd: usage.costUsd ?? null,
    };
  },
});

const MAX_PICKS = 500;

export const PicksWindow = v.object({
  audienceId: v.pipe(v.string(), v.nonEmpty('Please select an audience')),
  from: v.pipe(v.string(), v.isoTimestamp('from must be an ISO timestamp')),
  to: v.pipe(v.string(), v.isoTimestamp('to must be an ISO timestamp')),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_PICKS)), 100),
});

/**
 * An audience's picks for its feed and newsletter, picked in [from, to), newest first: not
 * archived and picked for feed.
 */
export const picksInWindow = fn(PicksWindow, async ({ audienceId, from, to, limit }) => {
  const { data } = await PickEntity.query
    .byAudience({ audienceId })
    .between({ pickedAt: from }, { pickedAt: to })
    .where(
      ({ isArchived, isPickedForFeed }, { eq }) =>
        `${eq(isArchived, false)} AND ${eq(isPickedForFeed, true)}`,
    )
    .go({ order: 'desc', count: limit, pages: 'all' });
  return data.filter((pick) => pick.pickedAt >= from && pick.pickedAt < to) as Pick[];
});

/** The newsletter's read: `picksForAudience(audienceId, {from, to, limit})`. */
export function picksForAudience(
  audienceId: string,
  window: { from: string; to: string; limit?: number },
): Promise<Pick[]> {
  return picksInWindow({ audienceId, ...window });
}
