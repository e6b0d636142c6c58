// The feed build as a job (ADR 0039): one reader's list, in a slot of its own, so builds for
// different readers run side by side and one reader's never run twice at once. A change requested
// while a build runs (another feedback, new clues) makes the build run again, or the next run once
// this one ended, so the last request is always shown; a redelivered or recovered run simply
// builds again, which writes what changed (ADR 0066).
import * as v from 'valibot';
import { isVisibleError } from '#core/common';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';
import * as Users from '#core/users';
import { buildFeed } from './build';

/** Builds in one run at most: a reader who keeps clicking is caught up by the next request. */
const BUILDS_PER_RUN = 3;

/** The slot a build of one reader's list holds while it is queued or runs. */
export const buildSlot = (userId: string) => `build-feed#${userId}`;

export const buildFeedJob = Jobs.defineJob({
  name: 'build-feed',
  title: "Building a reader's feed",
  slotFor: ({ userId }) => buildSlot(userId),
  input: v.object({ userId: v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, 'Not a user id')) }),
  async run({ userId }, context) {
    for (let round = 1; round <= BUILDS_PER_RUN; round++) {
      const outcome = await buildFeed(userId);
      context.log.info(`Feed built: ${JSON.stringify(outcome)}`, { userId });
      if (!outcome.built) return outcome;
      if (outcome.current && !(await Users.byId(userId))?.feedRequestedAt) return outcome;
    }
    return { built: true, current: false };
  },
  // A request stored after the run's last look finds the slot still held and is not queued; once
  // the slot is free it is looked for again, so no request is left unbuilt.
  async ended({ userId }) {
    if ((await Users.byId(userId))?.feedRequestedAt) await requestBuild(userId);
  },
});

/**
 * Queues a build of the reader's list. When one runs already, it sees the request (the reader's
 * `feedRequestedAt` moved) and builds again; if queueing fails, the change stands and the next
 * scheduled scoring run rebuilds the list.
 */
export async function requestBuild(userId: string): Promise<void> {
  try {
    await Jobs.enqueue(buildFeedJob, { userId }, userId);
  } catch (error) {
    if (isVisibleError(error) && error.code === 'jobs.busy') return;
    logger.error("Could not queue a build of a reader's feed", { userId, error });
  }
}

/**
 * A build of the reader's list to queue inside a write of theirs (a like): the write takes the
 * build's slot, so it fails if a build took it meanwhile; once it committed, `send` queues it.
 */
export function buildWith(userId: string): Jobs.Queueing {
  return Jobs.queueing(buildFeedJob, { userId }, userId);
}

/** Sends a build made ready with `buildWith`; if that fails, the change stands (see requestBuild). */
export async function sendBuild(build: Jobs.Queueing, userId: string): Promise<void> {
  try {
    await build.send();
  } catch (error) {
    logger.error("Could not queue a build of a reader's feed", { userId, error });
  }
}
