// One story-building pass at a time. Two imports telling one event at once would each find no
// story and start one; passes taking turns make the second find the first's. The lease expires,
// so a pass that died holds nobody up for long; every write of a pass checks that it still holds
// the lease, so a pass that overran it writes nothing once the next has taken it.
import { isConditionFailure } from '#core/db';
import { ulid } from '#core/ids';
import { StoryBuilderLeaseEntity } from './lease-entity';

/** How long a pass may hold the lease (a pass takes well under a second). */
const LEASE_MS = 30_000;
/** How long a pass waits for the lease before giving up (its import then fails and is retried). */
const WAIT_MS = 2 * LEASE_MS;

export type Lease = { holder: string; written: string[] };

/** Takes the lease once it is free or expired; answers what the last holder wrote. */
export async function acquire(): Promise<Lease> {
  const holder = ulid();
  const gaveUpAt = Date.now() + WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const now = new Date().toISOString();
    try {
      const { data } = await StoryBuilderLeaseEntity.update({})
        .set({ holder, until: new Date(Date.now() + LEASE_MS).toISOString() })
        .where((attr, op) => `${op.notExists(attr.holder)} OR ${op.lt(attr.until, now)}`)
        .go({ response: 'all_new' });
      return { holder, written: data.written ?? [] };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    if (Date.now() > gaveUpAt) throw new Error('The story builder stayed busy: try again later');
    // Waits longer each time (to a quarter second): a pass takes a few hundred milliseconds.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.random() * Math.min(250, 10 * 2 ** attempt)),
    );
  }
}

/** Gives the lease back with the stories this pass wrote; nothing if it expired and was taken. */
export async function release(lease: Lease, written: readonly string[]): Promise<void> {
  await StoryBuilderLeaseEntity.patch({})
    .set({ written: [...written] })
    .remove(['holder', 'until'])
    .where((attr, op) => op.eq(attr.holder, lease.holder))
    .go()
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}
