// Several independent changes in one transaction, each standing or falling alone: a member whose
// own condition refused it is left out and the others are tried again without it. A batch costs
// one call, and one member's refusal costs the others nothing.
import { createWriteTransaction, type Entity } from 'electrodb';
import { afterCollision, isConditionFailure } from './entity-config';

/** One write of a transaction, as an ElectroDB entity's `.commit()` makes it. */
export type TransactionWrite = ReturnType<Parameters<typeof createWriteTransaction>[1]>[number];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any entity, as ElectroDB types it
type Entities = Record<string, Entity<any, any, any, any>>;
/** The entities as a transaction hands them over, with `.commit()` on every write. */
type InTransaction<E extends Entities> = Parameters<
  Parameters<typeof createWriteTransaction<E, unknown, TransactionWrite[]>>[1]
>[0];

/** DynamoDB's most items in one transaction. */
export const MOST_ITEMS = 100;

type Cancelled = { canceled: boolean; data: { code?: string }[] };

/**
 * Commits each member's writes, and the `shared` writes for those still in, in one transaction.
 * Answers the members committed and those refused (one of their own writes' conditions failed);
 * when a shared write is refused, every member is. A refused member is left to its caller, which
 * decides again from what is stored.
 */
export async function committedTogether<E extends Entities, M>(
  entities: E,
  members: readonly M[],
  writesOf: (member: M, entities: InTransaction<E>) => TransactionWrite[],
  shared: (members: readonly M[], entities: InTransaction<E>) => TransactionWrite[] = () => [],
): Promise<{ committed: M[]; refused: M[] }> {
  let left = [...members];
  const refused: M[] = [];
  for (let tries = 1; left.length > 0;) {
    let own: TransactionWrite[][] = [];
    const transaction = createWriteTransaction(entities, (inTransaction) => {
      own = left.map((member) => writesOf(member, inTransaction));
      const writes = [...own.flat(), ...shared(left, inTransaction)];
      if (writes.length > MOST_ITEMS)
        throw new RangeError(`${writes.length} writes exceed a transaction's ${MOST_ITEMS}`);
      return writes;
    });
    const result = (await transaction.go().catch((error: unknown) => {
      // Refused without saying which write: each member is decided again alone.
      if (isConditionFailure(error)) return undefined;
      throw error;
    })) as Cancelled | undefined;
    if (!result) return { committed: [], refused: [...refused, ...left] };
    if (!result.canceled) return { committed: left, refused };
    const codes = result.data.map((item) => item.code ?? 'None');
    if (!codes.includes('ConditionalCheckFailed')) {
      await afterCollision(tries++, codes);
      continue;
    }
    // Which members' own writes were refused, by each write's place in the transaction.
    const ownWrites = own.flat().length;
    if (codes.slice(ownWrites).includes('ConditionalCheckFailed'))
      return { committed: [], refused: [...refused, ...left] };
    let at = 0;
    const next: M[] = [];
    left.forEach((member, index) => {
      const count = own[index]!.length;
      const failed = codes.slice(at, at + count).includes('ConditionalCheckFailed');
      at += count;
      (failed ? refused : next).push(member);
    });
    left = next;
  }
  return { committed: [], refused };
}
