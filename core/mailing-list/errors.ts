// The one error the mailing list port throws: a provider failure with a stable code, so callers
// can tell "try again later" from "our request was wrong" without parsing provider messages.
export type MailingListErrorCode =
  | 'mailing_list.unavailable'
  | 'mailing_list.unauthorized'
  | 'mailing_list.not_found'
  | 'mailing_list.rejected'
  | 'mailing_list.invalid_answer';

export class MailingListError extends Error {
  override name = 'MailingListError';
  constructor(
    readonly code: MailingListErrorCode,
    message: string,
    /** The provider's HTTP status, when it answered at all. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
