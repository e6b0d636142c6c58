// DynamoDB refuses a key longer than it can store (2,048 bytes for a partition key, 1,024 for a
// sort key) with an error. No stored item can have such a key, so a read by one finds nothing:
// a huge id typed into a form is then "not found" like any other unknown id, never a 500.
import type { InitializeHandler, InitializeHandlerArguments, MiddlewareStack } from '@smithy/types';

const MAX_BYTES = { partition: 2048, sort: 1024 };
const SORT_KEYS = new Set(['sk', 'gsi1sk']);

type Key = Record<string, unknown>;

/** True when no item can be stored under this key (marshalled or plain values). */
export function isImpossibleKey(key: Key): boolean {
  return Object.entries(key).some(([name, value]) => {
    const text = typeof value === 'string' ? value : (value as { S?: unknown } | null)?.S;
    if (typeof text !== 'string') return false;
    const limit = SORT_KEYS.has(name) ? MAX_BYTES.sort : MAX_BYTES.partition;
    return text.length > limit / 4 && Buffer.byteLength(text) > limit;
  });
}

type GetInput = { Key?: Key };
type BatchGetInput = { RequestItems?: Record<string, { Keys?: Key[] }> };

/** Answers reads by impossible keys with nothing, without sending them (once per client). */
export function findNothingByImpossibleKeys<I extends object, O extends object>(
  stack: MiddlewareStack<I, O>,
): void {
  stack.add(
    (next: InitializeHandler<I, O>, context) => async (args: InitializeHandlerArguments<I>) => {
      const command = context.commandName;
      if (command === 'GetItemCommand' || command === 'GetCommand') {
        const { Key } = args.input as GetInput;
        if (Key && isImpossibleKey(Key)) return { output: { $metadata: {} } as O, response: {} };
      }
      if (command === 'BatchGetItemCommand' || command === 'BatchGetCommand') {
        const input = args.input as BatchGetInput;
        const requests = Object.entries(input.RequestItems ?? {}).map(
          ([table, request]) =>
            [
              table,
              { ...request, Keys: (request.Keys ?? []).filter((key) => !isImpossibleKey(key)) },
            ] as const,
        );
        const possible = requests.filter(([, request]) => request.Keys.length > 0);
        if (possible.length === 0) {
          const empty = Object.fromEntries(requests.map(([table]) => [table, []]));
          return { output: { Responses: empty, $metadata: {} } as O, response: {} };
        }
        return next({
          ...args,
          input: { ...input, RequestItems: Object.fromEntries(possible) } as I,
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'findNothingByImpossibleKeys' },
  );
}
