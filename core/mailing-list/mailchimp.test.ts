import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MailingListError,
  mailchimpMailingList,
  subscriberHash,
  type MailingList,
} from '#core/mailing-list';
import { startFakeMailchimp, type FakeMailchimp } from '#tests/fakes/mailchimp';

let fake: FakeMailchimp;
let list: MailingList;

beforeAll(async () => {
  fake = await startFakeMailchimp({ apiKey: 'right-key-us1', listId: 'list-1' });
  list = mailchimpMailingList({
    apiKey: fake.apiKey,
    server: 'us1',
    listId: fake.listId,
    baseUrl: fake.url,
  });
});

afterAll(() => fake.stop());

const uniqueEmail = () => `reader-${ulid().toLowerCase()}@example.org`;

async function subscribe(email: string, tags = ['aud-defi', 'first-audience:aud-defi']) {
  await list.upsertMember({ email, subscriberId: `sub-${email}`, status: 'subscribed', tags });
}

async function rejection(promise: Promise<unknown>): Promise<MailingListError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MailingListError);
  return error as MailingListError;
}

describe('mailchimp mailing list', () => {
  it('creates a member with its subscriber id and tags', async () => {
    const email = uniqueEmail();
    await subscribe(email);

    expect(fake.members.get(subscriberHash(email))).toMatchObject({
      email_address: email,
      status: 'subscribed',
      merge_fields: { SUBSCR_ID: `sub-${email}` },
      tags: [
        { name: 'aud-defi', id: expect.any(Number) },
        { name: 'first-audience:aud-defi', id: expect.any(Number) },
      ],
    });
    const put = fake.requests.find((request) => request.method === 'PUT');
    expect(put?.path).toBe(`/3.0/lists/list-1/members/${subscriberHash(email)}`);
    expect(put?.body).toMatchObject({ status_if_new: 'subscribed', status: 'subscribed' });
  });

  it('upserts idempotently: a second call leaves one member with the same tags', async () => {
    const email = uniqueEmail();
    await subscribe(email);
    await subscribe(email);

    const matching = [...fake.members.values()].filter((m) => m.email_address === email);
    expect(matching).toHaveLength(1);
    expect(matching[0]?.tags.map((tag) => tag.name)).toEqual([
      'aud-defi',
      'first-audience:aud-defi',
    ]);
  });

  it('skips the tags call when there are no tags', async () => {
    const email = uniqueEmail();
    const before = fake.requests.length;
    await subscribe(email, []);

    expect(fake.requests.slice(before).map((request) => request.method)).toEqual(['PUT']);
    expect(fake.members.get(subscriberHash(email))?.tags).toEqual([]);
  });

  it('describes a member with the spec fields only', async () => {
    const email = uniqueEmail();
    await list.upsertMember({
      email,
      subscriberId: 'sub-42',
      status: 'pending',
      tags: ['aud-nft', 'utm:twitter'],
    });

    await expect(list.memberInfo(email)).resolves.toStrictEqual({
      email_address: email,
      status: 'pending',
      tags: [{ name: 'aud-nft' }, { name: 'utm:twitter' }],
      merge_fields: { SUBSCR_ID: 'sub-42' },
    });
  });

  it('finds a member whatever the case of the e-mail address', async () => {
    const email = uniqueEmail();
    await subscribe(email);

    await expect(list.memberInfo(email.toUpperCase())).resolves.toMatchObject({
      email_address: email,
    });
  });

  it('answers undefined for an e-mail the provider does not know', async () => {
    await expect(list.memberInfo(uniqueEmail())).resolves.toBeUndefined();
  });

  it('activates and inactivates tags', async () => {
    const email = uniqueEmail();
    await subscribe(email);

    await list.updateTags(email, [
      { name: 'aud-defi', status: 'inactive' },
      { name: 'aud-dao', status: 'active' },
    ]);

    const info = await list.memberInfo(email);
    expect(info?.tags).toEqual([{ name: 'first-audience:aud-defi' }, { name: 'aud-dao' }]);
  });

  it('moves a member to a new e-mail address, keeping its subscriber id and tags', async () => {
    const oldEmail = uniqueEmail();
    const newEmail = uniqueEmail();
    await subscribe(oldEmail);

    await list.updateEmail(oldEmail, newEmail);

    expect(fake.members.has(subscriberHash(oldEmail))).toBe(false);
    await expect(list.memberInfo(oldEmail)).resolves.toBeUndefined();
    await expect(list.memberInfo(newEmail)).resolves.toEqual({
      email_address: newEmail,
      status: 'subscribed',
      tags: [{ name: 'aud-defi' }, { name: 'first-audience:aud-defi' }],
      merge_fields: { SUBSCR_ID: `sub-${oldEmail}` },
    });
  });

  it('unsubscribes a member', async () => {
    const email = uniqueEmail();
    await subscribe(email);

    await list.setStatus(email, 'unsubscribed');

    expect(fake.members.get(subscriberHash(email))?.status).toBe('unsubscribed');
    await expect(list.memberInfo(email)).resolves.toMatchObject({ status: 'unsubscribed' });
  });

  it('reports a provider outage as unavailable and works again afterwards', async () => {
    const email = uniqueEmail();
    fake.failNext(500, 'Internal Server Error');

    const error = await rejection(subscribe(email));

    expect(error.code).toBe('mailing_list.unavailable');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^Mailchimp upsert member failed with 500 Internal Server Error/);
    expect(error.cause).toBeDefined();
    await subscribe(email);
    expect(fake.members.has(subscriberHash(email))).toBe(true);
  });

  it('reports a bad API key as unauthorized with the provider title', async () => {
    const wrongKey = mailchimpMailingList({
      apiKey: 'wrong-key-us1',
      server: 'us1',
      listId: fake.listId,
      baseUrl: fake.url,
    });

    const error = await rejection(wrongKey.memberInfo(uniqueEmail()));

    expect(error.code).toBe('mailing_list.unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toContain('401 API Key Invalid');
  });

  it('keeps each adapter on its own key although the client is a singleton', async () => {
    const email = uniqueEmail();
    const wrongKey = mailchimpMailingList({
      apiKey: 'wrong-key-us1',
      server: 'us1',
      listId: fake.listId,
      baseUrl: fake.url,
    });

    const [good, bad] = await Promise.allSettled([
      subscribe(email),
      wrongKey.setStatus(email, 'cleaned'),
    ]);

    expect(good.status).toBe('fulfilled');
    expect(bad).toMatchObject({
      status: 'rejected',
      reason: { code: 'mailing_list.unauthorized' },
    });
    expect(fake.members.get(subscriberHash(email))?.status).toBe('subscribed');
  });

  it('reports tag changes for an unknown member as not found', async () => {
    const error = await rejection(
      list.updateTags(uniqueEmail(), [{ name: 'aud-defi', status: 'active' }]),
    );

    expect(error.code).toBe('mailing_list.not_found');
    expect(error.message).toContain('404 Resource Not Found');
  });

  it('refuses to move a member onto an address that is already a member', async () => {
    const first = uniqueEmail();
    const second = uniqueEmail();
    await subscribe(first);
    await subscribe(second);

    const error = await rejection(list.updateEmail(first, second));

    expect(error.code).toBe('mailing_list.rejected');
    expect(error.message).toContain('400 Member Exists');
    expect(fake.members.has(subscriberHash(first))).toBe(true);
  });

  it('reports an unreachable API as unavailable', async () => {
    const gone = await startFakeMailchimp();
    await gone.stop();
    const unreachable = mailchimpMailingList({
      apiKey: gone.apiKey,
      server: 'us1',
      listId: gone.listId,
      baseUrl: gone.url,
    });

    const error = await rejection(unreachable.memberInfo(uniqueEmail()));

    expect(error.code).toBe('mailing_list.unavailable');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('could not reach the API (ECONNREFUSED)');
  });
});
