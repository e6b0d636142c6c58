// ULIDs drawn from a pool of random bytes. The `ulid` package's own source asks the system for one
// byte per character, sixteen calls an id, which was 2% of the worker's CPU while sending a digest.
import { factory, monotonicFactory } from 'ulid';

const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let next = POOL_BYTES;

/** A number in [0, 1) from the pool: a byte over 256, so each of the 32 characters is as likely. */
function pooledRandom(): number {
  if (next === POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

/** A new ULID: its time now, 80 random bits. */
export const ulid: (seedTime?: number) => string = factory(pooledRandom);

/** A ULID generator whose ids made within one millisecond still sort in the order they were made. */
export function monotonicUlid(): (seedTime?: number) => string {
  return monotonicFactory(pooledRandom);
}
