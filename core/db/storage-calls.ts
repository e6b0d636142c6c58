// Storage calls counted per operation: an SDK middleware on the DynamoDB and SQS clients adds each
// call to the counting scope it was made in (AsyncLocalStorage), so a test or a bench can say how
// many calls one operation made. Outside a scope the middleware does nothing but a lookup.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HandlerExecutionContext, InitializeHandler, MiddlewareStack } from '@smithy/types';

/** Calls by service and command, e.g. `{ 'dynamodb GetItem': 1, 'sqs SendMessage': 1 }`. */
export type StorageCalls = Record<string, number>;
/** Writes by item, as `{pk} {sk}`: how often each item was put, updated or deleted. */
export type ItemWrites = Record<string, number>;

type Counted = { calls: StorageCalls; writes: ItemWrites };
const scope = new AsyncLocalStorage<Counted>();

/**
 * Runs `operation` and answers what it returned with the storage calls it made, by command, and
 * the items it wrote, by key (a transaction's condition checks write nothing).
 */
export async function countStorageCalls<T>(
  operation: () => Promise<T>,
): Promise<{ result: T; calls: StorageCalls; total: number; writes: ItemWrites }> {
  const counted: Counted = { calls: {}, writes: {} };
  const result = await scope.run(counted, operation);
  return { result, calls: counted.calls, total: totalOf(counted.calls), writes: counted.writes };
}

type Key = Record<string, unknown> | undefined;
type WriteInput = {
  Item?: Key;
  Key?: Key;
  TransactItems?: { Put?: { Item?: Key }; Update?: { Key?: Key }; Delete?: { Key?: Key } }[];
  RequestItems?: Record<string, { PutRequest?: { Item?: Key }; DeleteRequest?: { Key?: Key } }[]>;
};

/** A key attribute as text, whether the input is still plain or already marshalled. */
const text = (value: unknown) =>
  String(typeof value === 'object' && value && 'S' in value ? (value as { S: unknown }).S : value);

/** The keys of the items a write command writes. */
function writtenKeys(command: string, input: WriteInput): Key[] {
  switch (command) {
    case 'PutItem':
      return [input.Item];
    case 'UpdateItem':
    case 'DeleteItem':
      return [input.Key];
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).flatMap((item) =>
        item.Put
          ? [item.Put.Item]
          : item.Update
            ? [item.Update.Key]
            : item.Delete
              ? [item.Delete.Key]
              : [],
      );
    case 'BatchWriteItem':
      return Object.values(input.RequestItems ?? {}).flatMap((requests) =>
        requests.map((request) => request.PutRequest?.Item ?? request.DeleteRequest?.Key),
      );
    default:
      return [];
  }
}

/**
 * Runs `work` outside any counting scope: log lines are batched across operations and flushed by
 * whichever comes first, so their writes belong to no one operation.
 */
export function uncounted<T>(work: () => T): T {
  return scope.exit(work);
}

export function totalOf(calls: StorageCalls): number {
  return Object.values(calls).reduce((sum, count) => sum + count, 0);
}

/** Adds the counting middleware to an SDK client's stack (once per client). */
export function countCallsOf<I extends object, O extends object>(
  service: 'dynamodb' | 'sqs',
  stack: MiddlewareStack<I, O>,
): void {
  stack.add(
    (next: InitializeHandler<I, O>, context: HandlerExecutionContext) => (args) => {
      const counted = scope.getStore();
      if (counted) {
        const command = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const name = `${service} ${command}`;
        counted.calls[name] = (counted.calls[name] ?? 0) + 1;
        for (const key of writtenKeys(command, args.input as WriteInput)) {
          if (!key) continue;
          const item = `${text(key.pk)} ${text(key.sk)}`;
          counted.writes[item] = (counted.writes[item] ?? 0) + 1;
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'countStorageCalls' },
  );
}
