// What an AI call can fail with, as classes with a stable code and the cause, so a job can tell
// "try this article again later" (retryable) from "our request or configuration is wrong".
export type AiErrorCode =
  | 'ai.rate_limited'
  | 'ai.timeout'
  | 'ai.unavailable'
  | 'ai.bad_answer'
  | 'ai.rejected'
  | 'ai.not_configured'
  | 'ai.unsupported_task';

export abstract class AiError extends Error {
  abstract readonly code: AiErrorCode;
  /** True when the same call may succeed later (a job records it and retries the item). */
  abstract readonly retryable: boolean;
}

/** The provider said 429; `retryAfterMs` is its `retry-after` hint when it gave one. */
export class AiRateLimited extends AiError {
  override name = 'AiRateLimited';
  readonly code = 'ai.rate_limited';
  readonly retryable = true;
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No answer within the configured time. */
export class AiTimeout extends AiError {
  override name = 'AiTimeout';
  readonly code = 'ai.timeout';
  readonly retryable = true;
}

/** The provider could not be reached or failed on its side (5xx, connection refused). */
export class AiUnavailable extends AiError {
  override name = 'AiUnavailable';
  readonly code = 'ai.unavailable';
  readonly retryable = true;
}

/**
 * The model answered, but not with what was asked: malformed JSON, an answer that fails the
 * schema, a refusal or a truncated answer. `raw` keeps the text so a job can record it.
 */
export class AiBadAnswer extends AiError {
  override name = 'AiBadAnswer';
  readonly code = 'ai.bad_answer';
  readonly retryable = true;
  constructor(
    message: string,
    readonly raw: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The provider refused the request itself (bad key, unknown model, invalid request): a bug or a
 * configuration error, so retrying the same call will not help. */
export class AiRejected extends AiError {
  override name = 'AiRejected';
  readonly code = 'ai.rejected';
  readonly retryable = false;
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A model record names a provider this deployment has no key or address for. */
export class AiNotConfigured extends AiError {
  override name = 'AiNotConfigured';
  readonly code = 'ai.not_configured';
  readonly retryable = false;
}

/** The local provider has no method for this task (it answers only the product's known tasks). */
export class AiUnsupportedTask extends AiError {
  override name = 'AiUnsupportedTask';
  readonly code = 'ai.unsupported_task';
  readonly retryable = false;
}

export function isAiError(error: unknown): error is AiError {
  return error instanceof AiError;
}
