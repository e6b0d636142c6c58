// The process record's shared steps: reading a run, ending it, and the timings that tell a live
// run from a dead one. Plain runs (index.ts) and chunked runs (chunks.ts) both end through here.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import { committedOnce } from '#core/db';
import { ActiveProcessEntity } from './active-process-entity';
import { ProcessEntity } from './entity';

export type Process = EntityItem<typeof ProcessEntity>;

/** A Running process without a heartbeat for this long is presumed dead and may be taken over. */
export const STALE_AFTER_MS = 5 * 60_000;
/** A Queued process older than this was probably never delivered. */
export const UNDELIVERED_AFTER_MS = 2 * 60_000;
export const HEARTBEAT_MS = 30_000;
/** Claims a process (or a chunk) gets before it is ended Failed instead of retried. */
export const MAX_ATTEMPTS = 3;
export const TOO_MANY_ATTEMPTS = `Stopped after ${MAX_ATTEMPTS} attempts: the run kept stopping without finishing`;

export const now = () => new Date().toISOString();

/** The slot a process holds while it is active (processes queued before slots had one: its name). */
export const slotOf = (process: Pick<Process, 'name' | 'slot'>) => process.slot ?? process.name;

export async function byId(id: string): Promise<Process | undefined> {
  const { data } = await ProcessEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/**
 * Every Queued or Running process, oldest first: one Query of the slots partition (at most one
 * item per job name) and one BatchGet of their processes; never a scan.
 */
export async function active(): Promise<Process[]> {
  const { data: slots } = await ActiveProcessEntity.query
    .slot({})
    .go({ consistent: true, pages: 'all' });
  if (slots.length === 0) return [];
  const { data } = await ProcessEntity.get(slots.map(({ id }) => ({ id }))).go({
    consistent: true,
  });
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Calls `beat` every HEARTBEAT_MS until the returned stop is called; a failed beat is ignored. */
export function heartbeat(beat: () => Promise<unknown>): () => void {
  const timer = setInterval(() => void beat().catch(() => undefined), HEARTBEAT_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * Ends a process and frees its job name's slot in one transaction, only if the process is still
 * as `seen`: giving up on a silent run must not end one that just came back to life, and a run
 * ends only the attempt it claimed (a run taken over after a stall must not overwrite the
 * takeover's end; two chunks that finish a run at once end it once). Answers false when the
 * process moved on.
 */
export async function finish(
  process: Pick<Process, 'id' | 'name' | 'slot'>,
  end: { status: 'Success' | 'Failed'; output?: string; error?: string },
  seen: Pick<Process, 'status' | 'heartbeatAt'> | { attempt: number },
): Promise<boolean> {
  const { id } = process;
  const changes = {
    ...end,
    endTime: now(),
    ...(end.status === 'Success' && { progress: 1 }),
  };
  // A transaction that only collided with another (a like checking the slot) is tried again:
  // false means the process moved on since it was seen, and its end is someone else's.
  return committedOnce(
    createWriteTransaction({ process: ProcessEntity, active: ActiveProcessEntity }, (entities) => [
      entities.process
        .patch({ id })
        .set(changes)
        .where((attr, op) =>
          'attempt' in seen
            ? `${op.eq(attr.status, 'Running')} AND ${op.eq(attr.attempts, seen.attempt)}`
            : `${op.eq(attr.status, seen.status)} AND ${seen.heartbeatAt === undefined ? op.notExists(attr.heartbeatAt) : op.eq(attr.heartbeatAt, seen.heartbeatAt)}`,
        )
        .commit(),
      entities.active
        .delete({ name: slotOf(process) })
        .where((attr, op) => op.eq(attr.id, id))
        .commit(),
    ]),
  );
}
