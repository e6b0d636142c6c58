// Batch deletes that finish: DynamoDB may leave part of a batch unprocessed under load.
type BatchDeletable<K> = { delete(keys: K[]): { go(): Promise<{ unprocessed: K[] }> } };

/** Batch-deletes `keys` with an ElectroDB entity, retrying what is left unprocessed. */
export async function deleteAll<K>(entity: BatchDeletable<K>, keys: K[]): Promise<void> {
  let pending = keys;
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error(`Could not delete ${pending.length} item(s) after 5 attempts`);
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    ({ unprocessed: pending } = await entity.delete(pending).go());
  }
}
