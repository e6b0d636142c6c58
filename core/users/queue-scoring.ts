// Every change of a reader's clues queues their scoring: a new clue set is a new target (ADR 0033).
import { isVisibleError } from '#core/common';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';

/**
 * The reader's scores for their clues as they are now (a new reader's first feed, changed clues).
 * The change stands even if queueing fails: it is logged, and the scheduled run catches up.
 */
export async function queueScoring(userId: string): Promise<void> {
  try {
    // By name: the job lives in core/automations, which reads users (ADR 0057).
    await Jobs.enqueue('score-new-clues', { targets: [{ type: 'user', id: userId }] }, userId);
  } catch (error) {
    if (isVisibleError(error) && error.code === 'jobs.busy')
      logger.info('Scoring for these clues already runs; the scheduled run takes any change', {
        userId,
      });
    else logger.error("Could not queue scoring for a reader's clues", { userId, error });
  }
}
