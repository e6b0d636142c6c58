import { describe, expect, it } from 'vitest';
import { localMailingList, mailingList, subscriberHash } from '#core/mailing-list';

describe('subscriberHash', () => {
  it("is Mailchimp's member id: the md5 of the lower-cased e-mail", () => {
    expect(subscriberHash('test@example.com')).toBe('55502f40dc8b7c769880b10874abc9d0');
    expect(subscriberHash('Test@Example.COM')).toBe('55502f40dc8b7c769880b10874abc9d0');
  });
});

describe('local mailing list', () => {
  it('accepts every change and knows no members, because our table is the list', async () => {
    const list = localMailingList();
    const email = 'reader@example.org';

    await expect(
      list.upsertMember({ email, subscriberId: 'sub-1', status: 'subscribed', tags: ['aud-defi'] }),
    ).resolves.toBeUndefined();
    await expect(
      list.updateTags(email, [{ name: 'aud-defi', status: 'inactive' }]),
    ).resolves.toBeUndefined();
    await expect(list.updateEmail(email, 'new@example.org')).resolves.toBeUndefined();
    await expect(list.setStatus(email, 'unsubscribed')).resolves.toBeUndefined();
    await expect(list.memberInfo(email)).resolves.toBeUndefined();
  });

  it('is what the default configuration chooses, built once', async () => {
    const list = mailingList();

    expect(mailingList()).toBe(list);
    await expect(list.memberInfo('reader@example.org')).resolves.toBeUndefined();
  });
});
