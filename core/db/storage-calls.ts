// Storage calls counted per operation: an SDK middleware on the DynamoDB and SQS clients adds each
// call to the counting scope it was made in (AsyncLocalStorage), so a test or a bench can say how
// many calls one operation made. Outside a scope the middleware does nothing but a lookup.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HandlerExecutionContext, InitializeHandler, MiddlewareStack } from '@smithy/types';

/** Calls by service and command, e.g. `{ 'dynamodb GetItem': 1, 'sqs SendMessage': 1 }`. */
export type StorageCalls = Record<string, number>;

const scope = new AsyncLocalStorage<StorageCalls>();

/** Runs `operation` and answers what it returned with the storage calls it made, by command. */
export async function countStorageCalls<T>(
  operation: () => Promise<T>,
): Promise<{ result: T; calls: StorageCalls; total: number }> {
  const calls: StorageCalls = {};
  const result = await scope.run(calls, operation);
  return { result, calls, total: totalOf(calls) };
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
      const calls = scope.getStore();
      if (calls) {
        const name = `${service} ${(context.commandName ?? 'Unknown').replace(/Command$/, '')}`;
        calls[name] = (calls[name] ?? 0) + 1;
      }
      return next(args);
    },
    { step: 'initialize', name: 'countStorageCalls' },
  );
}
