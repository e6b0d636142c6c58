// Every change of a reader's clues queues their scoring: a new clue set is a new target (ADR 0033).
import { logger } from '#core/logs';

/**
 * The reader's scores for their clues as they are now (a new reader's first feed, changed clues).
 * The change stands even if queueing fails: it is logged, and the scheduled run catches up.
 */
export async function queueScoring(userId: string): Promise<void> {
  try {
    // Lazily: core/automations reads users, so a static import would make the two a cycle.
    const { scoreTargets } = await import('#core/automations');
    await scoreTargets([{ type: 'user', id: userId }], { log: logger, systemUserId: userId });
  } catch (error) {
    logger.error("Could not queue scoring for a reader's clues", { userId, error });
  }
}
