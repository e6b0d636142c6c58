import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Subscribers from '#core/subscribers';
import * as Tokens from '#core/tokens';
import { createAudience } from '#tests/integration/factories';
import { linkIn, messagesTo } from '#tests/integration/mail';

const email = () => `reader-${ulid().toLowerCase()}@example.org`;
const tokenIn = (link: string) => new URL(link).searchParams.get('subscriberHash')!;

describe('subscribers', () => {
  it('subscribes an address as pending and sends one confirmation e-mail with unsubscribe headers', async () => {
    const audience = await createAudience();
    const address = email();
    const { subscriber, assembleToken } = await Subscribers.subscribe({
      email: address,
      audienceId: audience.id,
      utm: 'spring',
    });
    expect(subscriber).toMatchObject({
      email: address,
      status: 'pending',
      firstAudienceId: audience.id,
      utm: 'spring',
    });
    expect(Tokens.verify('assemble', assembleToken)).toEqual({
      ok: true,
      subject: `${subscriber.id}.0`,
    });
    const messages = await messagesTo(address);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.subject).toBe('Confirm your Cluefeed subscription');
    expect(messages[0]!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(messages[0]!.headers['list-unsubscribe']).toMatch(
      /<http:\/\/localhost:3000\/api\/unsubscribe\?subscriberHash=[^>]+>, <mailto:/,
    );
  });

  it('confirms from the e-mail link, once, and refuses a second subscription with the same address', async () => {
    const audience = await createAudience();
    const address = email();
    await Subscribers.subscribe({ email: address, audienceId: audience.id });
    const [message] = await messagesTo(address);
    const confirmToken = tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription'));
    expect(await Subscribers.confirm(confirmToken)).toMatchObject({ status: 'subscribed' });
    expect(await Subscribers.confirm(confirmToken)).toMatchObject({ status: 'subscribed' });
    await expect(
      Subscribers.subscribe({ email: address.toUpperCase(), audienceId: audience.id }),
    ).rejects.toMatchObject({
      code: 'MAILCHIMP_USER_ALREADY_SUBSCRIBER',
      message: 'You are already a subscriber!',
      status: 409,
    });
  });

  it('sends a pending address a fresh e-mail and adds the audience without storing it twice', async () => {
    const [first, second] = [await createAudience(), await createAudience()];
    const address = email();
    const { subscriber } = await Subscribers.subscribe({ email: address, audienceId: first.id });
    const again = await Subscribers.subscribe({ email: address, audienceId: second.id });
    expect(again.subscriber.id).toBe(subscriber.id);
    expect([...(await Subscribers.byEmail(address))!.audienceIds!].sort()).toEqual(
      [first.id, second.id].sort(),
    );
    expect(await messagesTo(address)).toHaveLength(2);
  });

  it('stores one subscriber when the same new address subscribes twice at once', async () => {
    const audience = await createAudience();
    const address = email();
    const results = await Promise.all([
      Subscribers.subscribe({ email: address, audienceId: audience.id }),
      Subscribers.subscribe({ email: address, audienceId: audience.id }),
    ]);
    expect(results[0].subscriber.id).toBe(results[1].subscriber.id);
  });

  it('refuses a confirmation token for any other purpose and a forged one', async () => {
    const audience = await createAudience();
    const { subscriber, assembleToken } = await Subscribers.subscribe({
      email: email(),
      audienceId: audience.id,
    });
    await expect(Subscribers.confirm(assembleToken)).rejects.toMatchObject({
      message: 'Could not verify subscription. Invalid or broken link',
    });
    await expect(
      Subscribers.confirm(`${Tokens.sign('confirm', 60, subscriber.id)}x`),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('toggles audiences, records upcoming niches, and refuses an active audience as a niche', async () => {
    const [first, second] = [await createAudience(), await createAudience()];
    const niche = await createAudience({ state: 'upcoming', featured: false });
    const { subscriber } = await Subscribers.subscribe({ email: email(), audienceId: first.id });
    await Subscribers.setAudience(subscriber, { audienceId: second.id, subscribed: true });
    await Subscribers.setAudience(subscriber, { audienceId: first.id, subscribed: false });
    await Subscribers.addShadowAudiences(subscriber, [niche.id]);
    const stored = await Subscribers.byId(subscriber.id);
    expect([...stored!.audienceIds!]).toEqual([second.id]);
    expect([...stored!.shadowAudienceIds!]).toEqual([niche.id]);
    await expect(Subscribers.addShadowAudiences(subscriber, [first.id])).rejects.toMatchObject({
      status: 400,
    });
    await expect(Subscribers.addShadowAudiences(subscriber, [])).rejects.toMatchObject({
      message: 'Please select at least one niche',
    });
  });

  it('changes the e-mail address and refuses one another subscriber uses', async () => {
    const audience = await createAudience();
    const [a, b, c] = [email(), email(), email()];
    const { subscriber } = await Subscribers.subscribe({ email: a, audienceId: audience.id });
    await Subscribers.subscribe({ email: b, audienceId: audience.id });
    await expect(Subscribers.changeEmail(subscriber, b)).rejects.toMatchObject({
      code: 'subscriber.email_taken',
      status: 409,
    });
    expect((await Subscribers.changeEmail(subscriber, c.toUpperCase())).email).toBe(c);
    expect((await Subscribers.byEmail(c))?.id).toBe(subscriber.id);
    expect(await messagesTo(c)).toHaveLength(1);
    expect(await Subscribers.byEmail(a)).toBeUndefined();
    await expect(
      Subscribers.changeEmail((await Subscribers.byId(subscriber.id))!, 'nope'),
    ).rejects.toMatchObject({
      message: 'Please enter a valid email address',
    });
  });

  it('asks a subscribed reader to confirm a new address before mail goes there', async () => {
    const audience = await createAudience();
    const [before, after] = [email(), email()];
    const { subscriber } = await Subscribers.subscribe({ email: before, audienceId: audience.id });
    const [message] = await messagesTo(before);
    const confirmed = await Subscribers.confirm(
      tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription')),
    );
    await Subscribers.changeEmail(confirmed, after);
    expect(await Subscribers.byId(subscriber.id)).toMatchObject({
      email: after,
      status: 'pending',
    });
    const [confirmation] = await messagesTo(after);
    expect(confirmation?.subject).toBe('Confirm your Cluefeed subscription');
    await Subscribers.confirm(
      tokenIn(linkIn(confirmation!, 'http://localhost:3000/confirm-subscription')),
    );
    expect((await Subscribers.byId(subscriber.id))?.status).toBe('subscribed');
  });

  it('unsubscribes for good: no more mail until the address subscribes again', async () => {
    const audience = await createAudience();
    const address = email();
    const { subscriber } = await Subscribers.subscribe({ email: address, audienceId: audience.id });
    await Subscribers.unsubscribe(subscriber);
    const stored = (await Subscribers.byId(subscriber.id))!;
    expect(stored.status).toBe('unsubscribed');
    expect(Subscribers.canReceiveMail(stored)).toBe(false);
    const [message] = await messagesTo(address);
    await expect(
      Subscribers.confirm(tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription'))),
    ).rejects.toMatchObject({
      status: 400,
    });
    const again = await Subscribers.subscribe({ email: address, audienceId: audience.id });
    expect(again.subscriber).toMatchObject({ id: subscriber.id, status: 'pending' });
  });

  it('limits confirmation e-mails per address', async () => {
    const audience = await createAudience();
    const address = email();
    for (let i = 0; i < 3; i++)
      await Subscribers.subscribe({ email: address, audienceId: audience.id });
    await expect(
      Subscribers.subscribe({ email: address, audienceId: audience.id }),
    ).rejects.toMatchObject({ status: 429 });
    expect(await messagesTo(address)).toHaveLength(3);
  });
});
