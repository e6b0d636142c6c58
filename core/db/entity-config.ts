// What every ElectroDB entity is built with, and how a failed write condition is recognised.
import { db } from './client';

/** Client and table for an entity, resolved when the entity module is first loaded. */
export function entityConfig() {
  const { client, table } = db();
  return { client, table };
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
