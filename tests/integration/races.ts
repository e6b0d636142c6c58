// Races for tests: two (or more) actions started at the same moment, round after round.
import { setTimeout as after } from 'node:timers/promises';
import { db } from '#core/db';

/**
 * From round to round each action starts up to 12 steps of this later than round 0's "all at
 * once", in a fixed pattern: one action is usually quicker than the other, and without the offsets
 * the quicker one would always write first, leaving the other order of writes untried.
 */
const STEP_MS = 4;
/** The offsets repeat every PATTERN rounds (they are taken modulo this prime). */
const PATTERN = 13;

/**
 * Rounds that try every offset of the pattern once: between the first two actions the gap takes
 * each value from 6 steps one way to 6 the other once (0 in round 0, all at once), and a third
 * action comes first, last and between them in turn. Rounds past these repeat gaps already tried.
 */
export const EVERY_OFFSET = PATTERN;

/** Starts each action (at its round's offset) and answers their results in order. */
export type Race = <T extends unknown[]>(
  ...actions: { [K in keyof T]: () => Promise<T[K]> }
) => Promise<T>;

/** Runs `run` `count` times, each with a `race` that starts its actions together (or nearly). */
export async function rounds(count: number, run: (race: Race) => Promise<void>): Promise<void> {
  for (let round = 0; round < count; round++) {
    await run(<T extends unknown[]>(...actions: { [K in keyof T]: () => Promise<T[K]> }) => {
      const started = actions.map(async (action: () => Promise<unknown>, index) => {
        const offset = ((round * (index + 1) * 7) % PATTERN) * STEP_MS;
        if (offset > 0) await after(offset);
        return action();
      });
      return Promise.all(started) as Promise<T>;
    });
  }
}

const READS = /^(GetItem|BatchGetItem|Query|TransactGetItems)Command$/;
/** How long a write waits for the other actions' reads before it goes ahead anyway. */
const MAX_HOLD_MS = 3_000;

/**
 * Runs the actions at once, each DynamoDB write held until every action has made a read: they
 * decide from the same stored state, as two requests at the very same moment do, however the
 * machine schedules them. Answers how each ended.
 */
export async function decidedTogether<T>(
  ...actions: (() => Promise<T>)[]
): Promise<PromiseSettledResult<T>[]> {
  const stack = db().client.middlewareStack;
  let reads = 0;
  let release!: () => void;
  const allRead = new Promise<void>((resolve) => (release = resolve));
  const timeout = setTimeout(release, MAX_HOLD_MS);
  stack.add(
    (next, context) => async (args) => {
      if (READS.test(context.commandName ?? '')) {
        const answer = await next(args);
        if (++reads >= actions.length) release();
        return answer;
      }
      await allRead;
      return next(args);
    },
    { step: 'initialize', name: 'decidedTogether' },
  );
  try {
    return await Promise.allSettled(actions.map((action) => action()));
  } finally {
    clearTimeout(timeout);
    stack.remove('decidedTogether');
  }
}
