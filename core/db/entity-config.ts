// How every ElectroDB entity is defined, and how a failed write condition is recognised.
// Entities bind to the table lazily: importing an entity module reads no configuration and builds
// no client, so tests and scripts may set the environment after their imports.
import { Entity, type Schema } from 'electrodb';
import { db } from './client';

/** An ElectroDB entity whose client and table name are resolved from config on first use. */
export function defineEntity<
  A extends string,
  F extends string,
  C extends string,
  S extends Schema<A, F, C>,
>(schema: S): Entity<A, F, C, S> {
  const entity = new Entity<A, F, C, S>(schema, { table: 'unbound' });
  const internals = entity as unknown as {
    client: unknown;
    config: { table: string };
    setClient(client: unknown): void;
  };
  let client: unknown;
  Object.defineProperty(internals, 'client', {
    get() {
      // setClient normalises the AWS SDK client and stores it through the setter below.
      if (client === undefined) internals.setClient(db().client);
      return client;
    },
    set(normalised: unknown) {
      client = normalised;
    },
  });
  Object.defineProperty(internals.config, 'table', {
    get: () => db().table,
    set() {},
  });
  return entity;
}

export function isConditionFailure(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { name, message } = current as { name?: string; message?: string };
    if (
      name === 'ConditionalCheckFailedException' ||
      (name === 'TransactionCanceledException' && message?.includes('ConditionalCheckFailed'))
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs a write (one item or a transaction); false when it was refused (a condition failed, or the
 * transaction collided with another one) and nothing was written.
 */
export async function committed(write: { go(): Promise<object> }): Promise<boolean> {
  try {
    const result = await write.go();
    return !('canceled' in result && result.canceled);
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A transaction that kept colliding with others on its items, every try. */
export class KeptColliding extends Error {}

/** Tries of a transaction that only collided with another one (never one a condition refused). */
const CONFLICT_ATTEMPTS = 4;

type Transaction = {
  go(): Promise<{ canceled: boolean; data: { code: string }[] }>;
};

/**
 * Runs a transaction: false when a condition refused it, so the change was made before or the
 * state it was decided from is gone. One cancelled only because another transaction held one of
 * its items is tried again, so a change nobody else made is not lost to a collision.
 */
export async function committedOnce(write: Transaction): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const result = await write.go().catch((error: unknown) => {
      if (isConditionFailure(error))
        return { canceled: true, data: [{ code: 'ConditionalCheckFailed' }] };
      throw error;
    });
    if (!result.canceled) return true;
    const codes = result.data.map((item) => item.code);
    if (codes.includes('ConditionalCheckFailed')) return false;
    await afterCollision(attempt, codes);
  }
}

/**
 * Waits a moment before the next try of a transaction that only collided with another (its
 * `attempt`-th try, cancelled with `codes`); throws KeptColliding after the last.
 */
export async function afterCollision(attempt: number, codes: readonly string[]): Promise<void> {
  if (attempt >= CONFLICT_ATTEMPTS)
    throw new KeptColliding(`The transaction was cancelled (${codes.join(', ')})`);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
}

/**
 * `committedOnce` for a caller that answers every lost write alike: a transaction that kept
 * colliding is false too, as if another writer had won (the caller reads again or says 409).
 */
export async function committedOrRaced(write: Transaction): Promise<boolean> {
  try {
    return await committedOnce(write);
  } catch (error) {
    if (error instanceof KeptColliding) return false;
    throw error;
  }
}
