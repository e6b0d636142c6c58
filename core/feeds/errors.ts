// Why a feed could not be read: a stable code for the import's bookkeeping and a message an
// operator can act on without reading a stack trace.
export type FeedErrorCode =
  | 'feed.timeout'
  | 'feed.too_large'
  | 'feed.http_status'
  | 'feed.too_many_redirects'
  | 'feed.unreachable'
  /** The host resolves to a loopback, private, link-local or metadata address (SSRF guard). */
  | 'feed.refused'
  | 'feed.malformed'
  | 'feed.unsupported';

export class FeedError extends Error {
  override name = 'FeedError';
  constructor(
    readonly code: FeedErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isFeedError(error: unknown): error is FeedError {
  return error instanceof FeedError;
}
