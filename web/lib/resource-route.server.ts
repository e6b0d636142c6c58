// Resource routes (APIs, admin data, health) answer without passing through entry.server, so
// they store their request's log lines themselves before answering: on Lambda the process may
// freeze as soon as the response is sent, and buffered lines would be lost.
import { flush } from '#core/logs';

const STORES_LOGS = Symbol.for('cluefeed.storesLogs');

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
