// How an admin page answers a person's mistake: the VisibleError's message, in the product's
// words, with its 4xx, and whatever the page echoes back. Its code is for logs and the JSON APIs
// and never reaches an operator's screen. Anything else is a bug and is thrown (a 500).
import { data } from '@remix-run/node';
import { isVisibleError } from '#core/common';

export function refusal<T extends object>(error: unknown, extra: T) {
  if (!isVisibleError(error)) throw error;
  return data({ ...extra, error: error.message }, { status: error.status });
}

/** The message a plain document (a preview frame) shows for a refusal; anything else is thrown. */
export function refusalMessage(error: unknown): { message: string; status: number } {
  if (!isVisibleError(error)) throw error;
  return { message: error.message, status: error.status };
}
