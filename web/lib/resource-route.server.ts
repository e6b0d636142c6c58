// Resource routes (APIs, admin data, health) answer without passing through entry.server, so
// they store their request's log lines themselves before answering: on Lambda the process may
// freeze as soon as the response is sent, and buffered lines would be lost.
import { flush } from '#core/logs';
import { methodNotAllowed } from './api.server';

const STORES_LOGS = Symbol.for('cluefeed.storesLogs');
const READ_ONLY = Symbol.for('cluefeed.readOnly');

/** Wraps a resource route's loader or action so its log lines are stored before it answers. */
export function storingLogs<Args extends unknown[], Result>(
  handler: (...args: Args) => Result | Promise<Result>,
): (...args: Args) => Promise<Result> {
  const wrapped = async (...args: Args) => {
    try {
      return await handler(...args);
    } finally {
      await flush();
    }
  };
  return Object.assign(wrapped, { [STORES_LOGS]: true });
}

/** Whether a loader or action was wrapped by `storingLogs` (checked by the route sweep). */
export function storesLogs(handler: unknown): boolean {
  return typeof handler === 'function' && STORES_LOGS in handler;
}

/**
 * The action of a resource route that is only read: a 405 that names the methods it takes (Remix's
 * own answer is `{"message":"Unexpected Server Error"}`), after `guard`: an admin route checks the
 * session first, so a stranger learns nothing about it.
 */
export function readOnly(guard?: (request: Request) => Promise<unknown>) {
  const action = storingLogs(async function action({ request }: { request: Request }) {
    await guard?.(request);
    return methodNotAllowed('GET, HEAD');
  });
  return Object.assign(action, { [READ_ONLY]: true });
}

/** Whether an action is `readOnly`'s (the method sweep posts to every route that is only read). */
export function isReadOnly(handler: unknown): boolean {
  return typeof handler === 'function' && READ_ONLY in handler;
}
