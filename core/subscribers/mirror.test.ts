// The mailing-list mirror goes through the outbox: each change is a message stored with the
// change, told to Mailchimp (here its fake API, through the real adapter) by the worker once,
// retried while Mailchimp fails, and never undoing a later change when it comes late.
import { ulid } from 'ulid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  mailchimpMailingList,
  mailingList,
  subscriberHash,
  type MailingList,
} from '#core/mailing-list';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience, uniqueSlug } from '#tests/integration/factories';
import { startFakeMailchimp, type FakeMailchimp } from '#tests/fakes/mailchimp';

let fake: FakeMailchimp;
let mailchimp: MailingList;
beforeAll(async () => {
  fake = await startFakeMailchimp({ apiKey: 'right-key-us1', listId: 'list-1' });
  mailchimp = mailchimpMailingList({
    apiKey: fake.apiKey,
    server: 'us1',
    listId: fake.listId,
    baseUrl: fake.url,
  });
});
afterAll(() => fake.stop());

beforeEach(() => {
  // The configured list (local in tests) forwards every call to the adapter on the fake API.
  const list = mailingList();
  for (const method of ['upsertMember', 'updateTags', 'setStatus', 'updateEmail'] as const)
    vi.spyOn(list, method).mockImplementation(
      mailchimp[method].bind(mailchimp) as (...args: unknown[]) => Promise<void>,
    );
});
afterEach(() => vi.restoreAllMocks());

const tokenOf = (url: string) => new URL(url).searchParams.get('subscriberHash')!;
const later = (ms: number) => Date.now() + ms + 1_000;

/** A subscriber of a fresh audience, and their confirm token. */
async function reader() {
  const email = `reader-${ulid().toLowerCase()}@example.org`;
  const audience = await createAudience({ tag: uniqueSlug('tag') });
  const { subscriber } = await Subscribers.subscribe({ email, audienceId: audience.id });
  const confirm = tokenOf(Subscribers.subscriberLinks(subscriber).confirmUrl);
  return { email, audience, confirm };
}

/** The mailing-list messages queued for an address, oldest first. */
async function mirrorMessages(email: string) {
  return (await Outbox.recent({ limit: 200 }))
    .filter(({ to, kind }) => to === email && kind === 'mailing-list')
    .reverse();
}

const requestsFor = (email: string) =>
  fake.requests.filter(({ path }) => path.includes(subscriberHash(email)));

describe('the mailing-list mirror through the outbox', () => {
  it('stores the message with the confirmation, and retries a failed call until Mailchimp takes it', async () => {
    const { email, audience, confirm } = await reader();
    await Subscribers.confirm(confirm);
    const [message] = await mirrorMessages(email);
    expect(message).toMatchObject({
      status: 'queued',
      subject: 'Mailing list: subscribe the member, with its tags',
    });

    fake.failNext(503, 'Service Unavailable');
    expect(await Outbox.deliver(message!.id)).toEqual({
      result: 'retry',
      delayMs: Outbox.retryDelayMs(1),
    });
    expect(await Outbox.byId(message!.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: expect.stringContaining('503 Service Unavailable'),
    });
    expect(fake.members.get(subscriberHash(email))).toBeUndefined();

    await Outbox.deliverDue({ at: later(Outbox.retryDelayMs(1)) });
    expect(await Outbox.byId(message!.id)).toMatchObject({
      status: 'sent',
      attempts: 2,
      smtpResponse: 'Member subscribed with 2 tags',
    });
    expect(fake.members.get(subscriberHash(email))).toMatchObject({
      email_address: email,
      status: 'subscribed',
      tags: [
        expect.objectContaining({ name: audience.tag }),
        expect.objectContaining({ name: `first-audience:${audience.tag}` }),
      ],
    });
  });

  it('calls Mailchimp once for a message that comes again, however often and at once', async () => {
    const { email, confirm } = await reader();
    await Subscribers.confirm(confirm);
    const [message] = await mirrorMessages(email);
    const record = { messageId: 'm', body: JSON.stringify({ outboundEmailId: message!.id }) };
    await Promise.all([
      Outbox.handleBatch([record]),
      Outbox.handleBatch([record]),
      Outbox.handleBatch([record]),
    ]);
    await Outbox.handleBatch([record]);
    expect(await Outbox.byId(message!.id)).toMatchObject({ status: 'sent', attempts: 1 });
    // One upsert: the member, then its tags.
    expect(requestsFor(email).map(({ method }) => method)).toEqual(['PUT', 'POST']);
  });

  it('never undoes a later change: an unsubscribe retried after the reader came back is cancelled', async () => {
    const { email, audience, confirm } = await reader();
    await Subscribers.confirm(confirm);
    await Outbox.deliver((await mirrorMessages(email))[0]!.id);
    await Subscribers.unsubscribe((await Subscribers.byEmail(email))!);
    const left = (await mirrorMessages(email))[1]!;
    expect(left.subject).toBe('Mailing list: unsubscribe the member');
    fake.failNext(503, 'Service Unavailable');
    expect((await Outbox.deliver(left.id)).result).toBe('retry');

    // They come back and confirm again; that confirmation is told first.
    const { subscriber } = await Subscribers.subscribe({ email, audienceId: audience.id });
    await Subscribers.confirm(tokenOf(Subscribers.subscriberLinks(subscriber).confirmUrl));
    const back = (await mirrorMessages(email))[2]!;
    expect(await Outbox.deliver(back.id)).toEqual({ result: 'sent' });

    await Outbox.deliverDue({ at: later(Outbox.retryDelayMs(1)) });
    expect(await Outbox.byId(left.id)).toMatchObject({
      status: 'cancelled',
      lastError: 'Subscribed again at this address: a later change tells the mailing list',
    });
    expect(fake.members.get(subscriberHash(email))?.status).toBe('subscribed');
  });

  it('ends with the truth when an unsubscribe is told while the confirmation is on its way', async () => {
    const { email, confirm } = await reader();
    await Subscribers.confirm(confirm);
    const [member] = await mirrorMessages(email);
    const upsert = vi.mocked(mailingList().upsertMember);
    const toProvider = upsert.getMockImplementation()!;
    upsert.mockImplementationOnce(async (input) => {
      // While this call is on its way the reader leaves, and that change reaches the list first.
      await Subscribers.unsubscribe((await Subscribers.byEmail(email))!);
      const left = (await mirrorMessages(email))[1]!;
      expect(await Outbox.deliver(left.id)).toEqual({ result: 'sent' });
      return toProvider(input);
    });
    expect(await Outbox.deliver(member!.id)).toEqual({ result: 'sent' });
    expect(fake.members.get(subscriberHash(email))?.status).toBe('unsubscribed');
  });

  it('tells the list of an address change and a removed audience, and a refused call fails with its reason', async () => {
    const { email, audience, confirm } = await reader();
    const subscriber = await Subscribers.confirm(confirm);
    await Outbox.deliver((await mirrorMessages(email))[0]!.id);

    await Subscribers.setAudience(subscriber, { audienceId: audience.id, subscribed: false });
    const untag = (await mirrorMessages(email))[1]!;
    expect(untag.subject).toBe(`Mailing list: update the tag ${audience.tag}`);
    expect(await Outbox.deliver(untag.id)).toEqual({ result: 'sent' });
    expect(fake.members.get(subscriberHash(email))?.tags.map(({ name }) => name)).toEqual([
      `first-audience:${audience.tag}`,
    ]);

    const moved = `moved-${ulid().toLowerCase()}@example.org`;
    await Subscribers.changeEmail((await Subscribers.byEmail(email))!, moved);
    const left = (await mirrorMessages(email))[2]!;
    fake.failNext(400, 'Invalid Resource');
    expect(await Outbox.deliver(left.id)).toEqual({ result: 'failed' });
    expect(await Outbox.byId(left.id)).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('400 Invalid Resource'),
    });
  });
});
