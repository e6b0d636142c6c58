import { describe, expect, it, vi } from 'vitest';
import { mailer } from '#core/mail';
import { ulid } from 'ulid';
import * as Outbox from '#core/outbox';
import { RateLimitWindowEntity } from '../rate-limit/entity';
import * as Subscribers from '#core/subscribers';
import * as Tokens from '#core/tokens';
import { createAudience } from '#tests/integration/factories';
import { linkIn, messagesTo, receivedBy } from '#tests/integration/mail';

const email = () => `reader-${ulid().toLowerCase()}@example.org`;
const tokenIn = (link: string) => new URL(link).searchParams.get('subscriberHash')!;

describe('subscribers', () => {
  it('answers without the mail server and queues the confirmation with the subscription', async () => {
    const audience = await createAudience();
    const address = email();
    const send = vi.spyOn(mailer(), 'send');
    try {
      const { subscriber } = await Subscribers.subscribe({
        email: address,
        audienceId: audience.id,
      });
      expect(send).not.toHaveBeenCalled();
      expect(await receivedBy(address)).toEqual([]);
      const [queued] = (await Outbox.recent({ limit: 50 })).filter(({ to }) => to === address);
      expect(queued).toMatchObject({
        kind: 'confirm-subscription',
        status: 'queued',
        subscriberId: subscriber.id,
        linkVersion: 0,
      });
    } finally {
      send.mockRestore();
    }
  });

  it('cancels a confirmation still queued when the subscriber leaves or moves first', async () => {
    const audience = await createAudience();
    const [left, moved, movedTo] = [email(), email(), email()];
    const leaving = await Subscribers.subscribe({ email: left, audienceId: audience.id });
    await Subscribers.unsubscribe(leaving.subscriber);
    const moving = await Subscribers.subscribe({ email: moved, audienceId: audience.id });
    await Subscribers.changeEmail(moving.subscriber, movedTo);
    expect(await messagesTo(left)).toEqual([]);
    expect(await messagesTo(moved)).toEqual([]);
    expect(await messagesTo(movedTo)).toHaveLength(1);
    const cancelled = (await Outbox.recent({ limit: 50 })).filter(({ to }) =>
      [left, moved].includes(to),
    );
    expect(cancelled.map(({ status, lastError }) => ({ status, lastError })).sort()).toEqual([
      { status: 'cancelled', lastError: 'The subscriber changed address before it was sent' },
      { status: 'cancelled', lastError: 'The subscriber unsubscribed before it was sent' },
    ]);
  });

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

  it('toggles audiences and upcoming niches one at a time, and refuses an active audience as a niche', async () => {
    const [first, second] = [await createAudience(), await createAudience()];
    const [niche, other] = [
      await createAudience({ state: 'upcoming', featured: false }),
      await createAudience({ state: 'upcoming', featured: false }),
    ];
    const { subscriber } = await Subscribers.subscribe({ email: email(), audienceId: first.id });
    await Subscribers.setAudience(subscriber, { audienceId: second.id, subscribed: true });
    await Subscribers.setAudience(subscriber, { audienceId: first.id, subscribed: false });
    await Subscribers.setShadowAudience(subscriber, { audienceId: niche.id, subscribed: true });
    await Subscribers.setShadowAudience(subscriber, { audienceId: other.id, subscribed: true });
    await Subscribers.setShadowAudience(subscriber, { audienceId: other.id, subscribed: false });
    const stored = await Subscribers.byId(subscriber.id);
    expect([...stored!.audienceIds!]).toEqual([second.id]);
    expect([...stored!.shadowAudienceIds!]).toEqual([niche.id]);
    await expect(
      Subscribers.setShadowAudience(subscriber, { audienceId: first.id, subscribed: true }),
    ).rejects.toMatchObject({ status: 400, message: 'Please choose among the upcoming niches' });
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
    const [message] = await messagesTo(address);
    await Subscribers.unsubscribe(subscriber);
    const stored = (await Subscribers.byId(subscriber.id))!;
    expect(stored.status).toBe('unsubscribed');
    expect(Subscribers.canReceiveMail(stored)).toBe(false);
    await expect(
      Subscribers.confirm(tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription'))),
    ).rejects.toMatchObject({
      status: 400,
    });
    const again = await Subscribers.subscribe({ email: address, audienceId: audience.id });
    expect(again.subscriber).toMatchObject({ id: subscriber.id, status: 'pending' });
  });

  it('keeps every audience chosen before when an unsubscribed address subscribes again', async () => {
    const [first, second, third] = [
      await createAudience(),
      await createAudience(),
      await createAudience(),
    ];
    const { subscriber } = await Subscribers.subscribe({ email: email(), audienceId: first.id });
    await Subscribers.setAudience(subscriber, { audienceId: second.id, subscribed: true });
    await Subscribers.unsubscribe(subscriber);
    const again = await Subscribers.subscribe({ email: subscriber.email, audienceId: third.id });
    expect(again.subscriber.status).toBe('pending');
    expect([...again.subscriber.audienceIds!].sort()).toEqual(
      [first.id, second.id, third.id].sort(),
    );
    for (const audience of [first, second, third]) {
      expect((await Subscribers.byAudience({ audienceId: audience.id })).subscriberIds).toEqual([
        subscriber.id,
      ]);
    }
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

  it('counts an address only when a confirmation goes out to it', async () => {
    const [audience, gone] = [await createAudience(), await createAudience({ state: 'upcoming' })];
    const address = email();
    // Refused before any e-mail: the missing audience gives the address's count back.
    for (let i = 0; i < 4; i++) {
      await expect(
        Subscribers.subscribe({ email: address, audienceId: gone.id }),
      ).rejects.toMatchObject({ status: 404 });
    }
    for (let i = 0; i < 3; i++)
      await Subscribers.subscribe({ email: address, audienceId: audience.id });
    await expect(
      Subscribers.subscribe({ email: address, audienceId: audience.id }),
    ).rejects.toMatchObject({ status: 429 });
    expect(await messagesTo(address)).toHaveLength(3);
  });

  it("limits a visitor's subscriptions by the address they come from, refusals included", async () => {
    const audience = await createAudience();
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}-${ulid()}`;
    for (let i = 0; i < 10; i++) {
      await Subscribers.subscribe({ email: email(), audienceId: audience.id, ip });
    }
    const refused = email();
    await expect(
      Subscribers.subscribe({ email: refused, audienceId: audience.id, ip }),
    ).rejects.toMatchObject({ status: 429 });
    expect(await Subscribers.byEmail(refused)).toBeUndefined();
    // Another visitor is not held back.
    await Subscribers.subscribe({ email: refused, audienceId: audience.id, ip: `${ip}-other` });
    expect((await Subscribers.byEmail(refused))?.status).toBe('pending');
  });

  it('counts asking whether an address is subscribed against the visitor, so it cannot be asked at speed', async () => {
    const audience = await createAudience();
    const address = email();
    await Subscribers.subscribe({ email: address, audienceId: audience.id });
    const [message] = await messagesTo(address);
    await Subscribers.confirm(
      tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription')),
    );
    // 15 at the same moment, at the start of the visitor's window: 10 are answered, 5 refused.
    const ip = `192.0.2.${ulid()}`;
    const answers = await Promise.allSettled(
      Array.from({ length: 15 }, () =>
        Subscribers.subscribe({ email: address, audienceId: audience.id, ip }),
      ),
    );
    const statuses = answers.map((answer) =>
      answer.status === 'rejected' ? (answer.reason as { status?: number }).status : 200,
    );
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it("does not let a visitor past their own limit use up another address's confirmations", async () => {
    const audience = await createAudience();
    const [victim, ip] = [email(), `203.0.113.${ulid()}`];
    for (let i = 0; i < 10; i++) {
      await Subscribers.subscribe({ email: email(), audienceId: audience.id, ip });
    }
    await Promise.all(
      Array.from({ length: 5 }, () =>
        expect(
          Subscribers.subscribe({ email: victim, audienceId: audience.id, ip }),
        ).rejects.toMatchObject({ status: 429 }),
      ),
    );
    // Not even for a moment: the victim's address was never counted.
    const { data: counted } = await RateLimitWindowEntity.get({
      bucket: 'confirmation-address',
      key: victim,
    }).go({ consistent: true });
    expect(counted).toBeNull();
    for (let i = 0; i < 3; i++) {
      await Subscribers.subscribe({ email: victim, audienceId: audience.id, ip: `${ip}-v` });
    }
    expect(await messagesTo(victim)).toHaveLength(3);
    const { data: after } = await RateLimitWindowEntity.get({
      bucket: 'confirmation-address',
      key: victim,
    }).go({ consistent: true });
    expect(after?.count).toBe(3);
  });

  it('retires every link sent to the old address when the address changes', async () => {
    const audience = await createAudience();
    const [before, after] = [email(), email()];
    const { subscriber, assembleToken } = await Subscribers.subscribe({
      email: before,
      audienceId: audience.id,
    });
    const [message] = await messagesTo(before);
    const old = {
      confirm: tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription')),
      preferences: tokenIn(linkIn(message!, 'http://localhost:3000/subscription')),
      unsubscribe: tokenIn(linkIn(message!, 'http://localhost:3000/unsubscribe')),
      oneClick: tokenIn(message!.headers['list-unsubscribe']!.match(/<(http[^>]+)>/)![1]!),
      assemble: assembleToken!,
    };
    const moved = await Subscribers.changeEmail(subscriber, after);
    expect(moved.linkVersion).toBe(1);
    for (const [link, token] of Object.entries(old)) {
      await expect(
        Subscribers.fromToken(token, ['confirm', 'manage', 'assemble']),
        link,
      ).rejects.toMatchObject({ status: 400, message: Subscribers.BROKEN_LINK_MESSAGE });
    }
    // The links sent to the new address work.
    const [confirmation] = await messagesTo(after);
    const fresh = tokenIn(linkIn(confirmation!, 'http://localhost:3000/subscription'));
    expect((await Subscribers.fromToken(fresh, ['manage'])).email).toBe(after);
  });

  it("does not confirm the new address with the old address's confirmation link", async () => {
    const audience = await createAudience();
    const [a, b] = [email(), email()];
    const { subscriber } = await Subscribers.subscribe({ email: a, audienceId: audience.id });
    const [message] = await messagesTo(a);
    const preferences = tokenIn(linkIn(message!, 'http://localhost:3000/subscription'));
    await Subscribers.changeEmail(await Subscribers.fromToken(preferences, ['manage']), b);
    await expect(
      Subscribers.confirm(tokenIn(linkIn(message!, 'http://localhost:3000/confirm-subscription'))),
    ).rejects.toMatchObject({ status: 400 });
    expect(await Subscribers.byId(subscriber.id)).toMatchObject({ email: b, status: 'pending' });
  });

  it('limits confirmation e-mails to a new address on address changes too', async () => {
    const audience = await createAudience();
    const target = email();
    for (let i = 0; i < 3; i++)
      await Subscribers.subscribe({ email: target, audienceId: audience.id });
    const { subscriber } = await Subscribers.subscribe({ email: email(), audienceId: audience.id });
    expect(await messagesTo(target)).toHaveLength(3);
    await Subscribers.unsubscribe((await Subscribers.byEmail(target))!);
    await expect(Subscribers.changeEmail(subscriber, target)).rejects.toMatchObject({
      status: 429,
    });
    expect(await messagesTo(target)).toHaveLength(3);
    expect((await Subscribers.byId(subscriber.id))!.linkVersion ?? 0).toBe(0);
  });
});

describe('audience members', () => {
  it('pages the subscribers of an audience, following every way audienceIds change', async () => {
    const [audience, other] = [await createAudience(), await createAudience()];
    const subscribed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { subscriber } = await Subscribers.subscribe({
        email: email(),
        audienceId: audience.id,
      });
      subscribed.push(subscriber.id);
    }
    const { subscriber: late } = await Subscribers.subscribe({
      email: email(),
      audienceId: other.id,
    });
    await Subscribers.setAudience(late, { audienceId: audience.id, subscribed: true });
    await Subscribers.setAudience((await Subscribers.byId(subscribed[0]!))!, {
      audienceId: audience.id,
      subscribed: false,
    });
    const expected = [...subscribed.slice(1), late.id].sort();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof Subscribers.byAudience>> = await Subscribers.byAudience(
        { audienceId: audience.id, cursor, limit: 2 },
      );
      expect(page.subscriberIds.length).toBeLessThanOrEqual(2);
      seen.push(...page.subscriberIds);
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect((await Subscribers.byAudience({ audienceId: other.id })).subscriberIds).toEqual([
      late.id,
    ]);
  });

  it('stays equal to the audience set under concurrent toggles', async () => {
    const [first, second] = [await createAudience(), await createAudience()];
    const { subscriber } = await Subscribers.subscribe({ email: email(), audienceId: first.id });
    const toggles = Array.from({ length: 12 }, (_, i) =>
      Subscribers.setAudience(subscriber, { audienceId: second.id, subscribed: i % 2 === 0 }).catch(
        (error: { code?: string }) => {
          // A transaction that collided with another one is refused whole, never half written.
          if (error.code !== 'subscriber.changed') throw error;
        },
      ),
    );
    await Promise.all(toggles);
    const stored = (await Subscribers.byId(subscriber.id))!;
    const inSet = [...(stored.audienceIds ?? [])].includes(second.id);
    const members = (await Subscribers.byAudience({ audienceId: second.id })).subscriberIds;
    expect(members).toEqual(inSet ? [subscriber.id] : []);
  });

  it('refuses a made-up cursor and an empty audience id with a 400', async () => {
    await expect(Subscribers.byAudience({ audienceId: '' })).rejects.toMatchObject({ status: 400 });
    await expect(
      Subscribers.byAudience({ audienceId: 'x', cursor: 'not-a-cursor' }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('builds the membership key from audience and subscriber and reads them back', () => {
    const key = Subscribers.AudienceMemberEntity.get({
      audienceId: '01HAUDIENCE',
      subscriberId: '01HSUBSCRIBER',
    }).params() as { Key: { pk: string; sk: string } };
    expect(key.Key).toEqual({ pk: 'audienceMembers#01HAUDIENCE', sk: '01HSUBSCRIBER' });
  });
});
