// Errors a person can cause: a stable code, a message fit to show, and the HTTP status to answer.
export class VisibleError extends Error {
  override name = 'VisibleError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isVisibleError(error: unknown): error is VisibleError {
  return error instanceof VisibleError;
}
