// The mailing list port: the provider's mirror of our subscribers. Our DynamoDB table is the source
// of truth; this only keeps a provider's list (Mailchimp) in step, or does nothing when local.
import { config } from '#core/config';
import { localMailingList } from './local';
import { mailchimpMailingList } from './mailchimp';

export { localMailingList, mailchimpMailingList };
export { subscriberHash } from './mailchimp';
export { MailingListError, type MailingListErrorCode } from './errors';

export type MemberStatus = 'pending' | 'subscribed' | 'unsubscribed' | 'cleaned';

/** A tag change sent to the provider: 'inactive' removes the tag from the member. */
export type TagChange = { name: string; status: 'active' | 'inactive' };

/** A member as the provider knows it (the spec's subscriber info). */
export type MemberInfo = {
  email_address: string;
  status: MemberStatus;
  tags: { name: string }[];
  merge_fields: { SUBSCR_ID?: string };
};

/** Every method rejects with a MailingListError when the provider fails. */
export interface MailingList {
  /** Creates or updates the member (idempotent upsert keyed by e-mail) with status and tags. */
  upsertMember(input: {
    email: string;
    subscriberId: string;
    status: MemberStatus;
    tags: string[];
  }): Promise<void>;
  /** The member behind an e-mail address, or undefined when the provider has none. */
  memberInfo(email: string): Promise<MemberInfo | undefined>;
  updateTags(email: string, tags: TagChange[]): Promise<void>;
  /** Moves the member to a new address, keeping its status, tags and merge fields. */
  updateEmail(oldEmail: string, newEmail: string): Promise<void>;
  setStatus(email: string, status: MemberStatus): Promise<void>;
}

let chosen: MailingList | undefined;

/** The mailing list the configuration names, built once per process. */
export function mailingList(): MailingList {
  if (chosen) return chosen;
  const settings = config();
  chosen =
    settings.MAILING_LIST === 'mailchimp'
      ? mailchimpMailingList({
          // config() refuses MAILING_LIST=mailchimp unless these three are set.
          apiKey: settings.MAILCHIMP_API_KEY!,
          server: settings.MAILCHIMP_SERVER_PREFIX!,
          listId: settings.MAILCHIMP_LIST_ID!,
          baseUrl: settings.MAILCHIMP_API_URL,
        })
      : localMailingList();
  return chosen;
}
