// The mailing list when no provider is configured: our table already is the list, so there is
// nothing to mirror and every call succeeds without side effects.
import type { MailingList } from './index';

export function localMailingList(): MailingList {
  const done = async () => {};
  return {
    upsertMember: done,
    // Nothing is mirrored, so there is no provider-side member to describe; callers read our table.
    memberInfo: async () => undefined,
    updateTags: done,
    updateEmail: done,
    setStatus: done,
  };
}
