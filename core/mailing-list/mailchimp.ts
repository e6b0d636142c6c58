// The Mailchimp adapter of the mailing list port, through the official Marketing API client.
// Members are addressed by Mailchimp's subscriber hash; every provider failure becomes a MailingListError.
import { createHash } from 'node:crypto';
import mailchimp, { type ErrorResponse, type lists } from '@mailchimp/mailchimp_marketing';
import * as v from 'valibot';
import { MailingListError } from './errors';
import type { MailingList, MemberInfo, MemberStatus } from './index';

const DEFAULT_BASE_PATH = 'https://server.api.mailchimp.com/3.0';
// The client waits two minutes by default; a request or job should give up long before that.
const TIMEOUT_MS = 10_000;

/** Mailchimp's member id: the MD5 of the lower-cased e-mail. An address, not a secret. */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.toLowerCase()).digest('hex');
}

// Settings the client reads on every call but leaves out of its published types.
type ClientInternals = { basePath: string; timeout: number };

const STATUSES: readonly MemberStatus[] = ['pending', 'subscribed', 'unsubscribed', 'cleaned'];

const MemberAnswer = v.object({
  email_address: v.string(),
  // 'archived' and 'transactional' contacts get no campaigns, which is what unsubscribed means to us.
  status: v.pipe(
    v.string(),
    v.transform((status) =>
      STATUSES.includes(status as MemberStatus) ? (status as MemberStatus) : 'unsubscribed',
    ),
  ),
  tags: v.optional(v.array(v.object({ name: v.string() })), []),
  merge_fields: v.optional(
    v.object({
      // Mailchimp answers an unset merge field with an empty string.
      SUBSCR_ID: v.optional(
        v.pipe(
          v.unknown(),
          v.transform((id) => (typeof id === 'string' && id !== '' ? id : undefined)),
        ),
      ),
    }),
    {},
  ),
});

type HttpFailure = {
  status?: number;
  code?: string;
  message?: string;
  response?: { body?: Partial<ErrorResponse> };
};

function failure(operation: string, error: unknown): MailingListError {
  if (error instanceof MailingListError) return error;
  const { status, code, message, response } = (error ?? {}) as HttpFailure;
  if (status === undefined) {
    return new MailingListError(
      'mailing_list.unavailable',
      `Mailchimp ${operation} failed: could not reach the API (${code ?? message ?? 'unknown error'})`,
      undefined,
      { cause: error },
    );
  }
  const problem = response?.body ?? {};
  const title = problem.title ?? message ?? 'Error';
  const detail = problem.detail ? `: ${problem.detail}` : '';
  const errorCode =
    status === 401 || status === 403
      ? 'mailing_list.unauthorized'
      : status === 404
        ? 'mailing_list.not_found'
        : status === 429 || status >= 500
          ? 'mailing_list.unavailable'
          : 'mailing_list.rejected';
  return new MailingListError(
    errorCode,
    `Mailchimp ${operation} failed with ${status} ${title}${detail}`,
    status,
    { cause: error },
  );
}

export function mailchimpMailingList(options: {
  apiKey: string;
  server: string;
  listId: string;
  baseUrl?: string;
}): MailingList {
  const { apiKey, listId } = options;
  const basePath = options.baseUrl
    ? `${options.baseUrl.replace(/\/+$/, '')}/3.0`
    : DEFAULT_BASE_PATH;
  // The client swaps the first 'server' in each URL for config.server; with our own base URL
  // that swap must change nothing, or a host or list id containing 'server' would be mangled.
  const server = options.baseUrl ? 'server' : options.server;

  // The client is one process-wide singleton. Configuring it right before each call is safe
  // because it reads its settings synchronously while building the request, so two adapters
  // (another list, a test's fake API) never send with each other's key or base URL.
  async function call<T>(operation: string, request: () => Promise<unknown>): Promise<T> {
    try {
      mailchimp.setConfig({ apiKey, server });
      Object.assign(mailchimp as unknown as ClientInternals, { basePath, timeout: TIMEOUT_MS });
      // The client rejects every non-2xx answer, so the ErrorResponse in its types never resolves.
      return (await request()) as T;
    } catch (error) {
      throw failure(operation, error);
    }
  }

  return {
    async upsertMember({ email, subscriberId, status, tags }) {
      const hash = subscriberHash(email);
      // Our statuses map 1:1. Note that 'pending' is Mailchimp's own double opt-in: Mailchimp
      // then e-mails the member its confirmation request.
      await call('upsert member', () =>
        mailchimp.lists.setListMember(listId, hash, {
          email_address: email,
          status_if_new: status,
          status,
          merge_fields: { SUBSCR_ID: subscriberId },
        }),
      );
      if (tags.length === 0) return;
      // Tags are only ever added here; removing one is an explicit updateTags with 'inactive'.
      await call('update member tags', () =>
        mailchimp.lists.updateListMemberTags(listId, hash, {
          tags: tags.map((name) => ({ name, status: 'active' })),
        }),
      );
    },

    async memberInfo(email): Promise<MemberInfo | undefined> {
      let answer: lists.MembersSuccessResponse;
      try {
        answer = await call('get member', () =>
          mailchimp.lists.getListMember(listId, subscriberHash(email)),
        );
      } catch (error) {
        if (error instanceof MailingListError && error.status === 404) return undefined;
        throw error;
      }
      const parsed = v.safeParse(MemberAnswer, answer);
      if (!parsed.success) {
        throw new MailingListError(
          'mailing_list.invalid_answer',
          `Mailchimp get member answered an unexpected shape: ${v.summarize(parsed.issues)}`,
          undefined,
          { cause: new v.ValiError(parsed.issues) },
        );
      }
      return parsed.output;
    },

    async updateTags(email, tags) {
      await call('update member tags', () =>
        mailchimp.lists.updateListMemberTags(listId, subscriberHash(email), { tags }),
      );
    },

    async updateEmail(oldEmail, newEmail) {
      await call('update member e-mail', () =>
        mailchimp.lists.updateListMember(listId, subscriberHash(oldEmail), {
          email_address: newEmail,
        }),
      );
    },

    async setStatus(email, status) {
      await call('set member status', () =>
        mailchimp.lists.updateListMember(listId, subscriberHash(email), { status }),
      );
    },
  };
}
