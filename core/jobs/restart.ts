// A local start after an unclean stop: what the previous run left. Its queue went with it (fauxqs
// keeps nothing), so every Queued run and pending chunk is sent again; and its worker is gone, so
// what that worker held is released at once instead of blocking its job's slot until the claim
// goes stale (5 minutes) and the next recovery happens to run.
import { isConditionFailure } from '#core/db';
import { logger } from '#core/logs';
import { ProcessChunkEntity } from './chunk-entity';
import { chunksOf } from './chunks';
import { ProcessEntity } from './entity';
import { active, now, type Process } from './process';
import { queueOf } from './definition';
import { jobMessage, send, sendAll, type JobMessage, type QueueName } from './queue';

/**
 * What a restart found: the runs a gone worker held (back to Queued), the planned runs whose
 * chunks it sent again, and how many messages it sent again.
 */
export type Restarted = { released: Process[]; resumed: Process[]; sent: number };

/** Runs a conditional write; false when the item moved on since it was read. */
async function writtenIfUnchanged(write: { go(): Promise<unknown> }): Promise<boolean> {
  try {
    await write.go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Releases what workers `isGone` says are gone held, and sends again every Queued run and pending
 * chunk. A released run goes back to Queued with its attempts kept (so one that keeps dying still
 * ends Failed after MAX_ATTEMPTS); each release holds only if the run is still as it was read.
 */
export async function recoverAfterRestart(
  isGone: (worker: string) => boolean | Promise<boolean>,
): Promise<Restarted> {
  const gone = async (worker: string | undefined) => !!worker && (await isGone(worker));
  const runs: Process[] = [];
  const chunks = new Map<QueueName, JobMessage[]>();
  const releasedRuns: Process[] = [];
  const resumed: Process[] = [];
  for (const process of await active()) {
    if (process.chunksTotal !== undefined) {
      const resent = await chunksToSend(process, gone);
      if (resent.length > 0) {
        await heardFromNow(process);
        resumed.push(process);
      }
      const queue = queueOf(process.name);
      chunks.set(queue, [...(chunks.get(queue) ?? []), ...resent]);
      continue;
    }
    const { worker } = process;
    if (process.status === 'Running' && (await gone(worker))) {
      const ok = await writtenIfUnchanged(
        ProcessEntity.patch({ id: process.id })
          .set({ status: 'Queued' })
          .remove(['heartbeatAt', 'worker', 'startTime'])
          .where(
            (attr, op) =>
              `${op.eq(attr.status, 'Running')} AND ${op.eq(attr.worker, worker)} AND ${op.eq(attr.attempts, process.attempts ?? 0)}`,
          ),
      );
      if (!ok) continue;
      releasedRuns.push(process);
    } else if (process.status !== 'Queued') continue;
    runs.push(process);
  }
  for (const process of runs) await send(jobMessage(process.id), queueOf(process.name));
  let sent = runs.length;
  for (const [queue, messages] of chunks) {
    await sendAll(messages, queue);
    sent += messages.length;
  }
  if (sent > 0)
    logger.info(`Sent ${sent} job message(s) again after a restart`, {
      released: releasedRuns.map((process) => process.id),
      resumed: resumed.map((process) => process.id),
    });
  return { released: releasedRuns, resumed, sent };
}

/**
 * A planned run whose chunks this start sends again is in this start's worker's hands: heard from
 * now, so the admin's notice does not say it waits for the gone worker (or for a takeover in 5
 * minutes) while its chunks already run again.
 */
async function heardFromNow(process: Process): Promise<void> {
  await writtenIfUnchanged(
    ProcessEntity.patch({ id: process.id })
      .set({ heartbeatAt: now() })
      .where((attr, op) => op.eq(attr.status, 'Running')),
  );
}

/** A planned run's pending chunks, and its running ones a gone worker held (released here). */
async function chunksToSend(
  process: Process,
  gone: (worker: string | undefined) => Promise<boolean>,
): Promise<JobMessage[]> {
  const messages: JobMessage[] = [];
  for (const chunk of await chunksOf(process.id, process.chunksTotal ?? 0)) {
    const { worker } = chunk;
    if (chunk.status === 'running' && (await gone(worker))) {
      const ok = await writtenIfUnchanged(
        ProcessChunkEntity.patch({ processId: process.id, index: chunk.index })
          .set({ status: 'pending', updatedAt: now() })
          .remove(['leaseUntil', 'worker'])
          .where(
            (attr, op) =>
              `${op.eq(attr.status, 'running')} AND ${op.eq(attr.worker, worker)} AND ${op.eq(attr.attempts, chunk.attempts ?? 0)}`,
          ),
      );
      if (ok) messages.push(jobMessage(process.id, chunk.index));
    } else if (chunk.status === 'pending') {
      messages.push(jobMessage(process.id, chunk.index));
    }
  }
  return messages;
}
