import { afterEach, describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Subscribers from '#core/subscribers';
import { SubscriberEntity } from '#core/subscribers';
import { mapPool } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import { createAudience } from '#tests/integration/factories';
import { action } from './api.unsubscribe';

const PROVIDER_IP = '203.0.113.7';

async function subscriber(audienceId?: string) {
  const { subscriber } = await Subscribers.subscribe({
    email: `oc-${ulid().toLowerCase()}@example.org`,
    audienceId: audienceId ?? (await createAudience()).id,
  });
  return subscriber;
}

function post(token: string, body: BodyInit, headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost/api/unsubscribe?subscriberHash=${token}`, {
    method: 'POST',
    body,
    headers: { 'X-Forwarded-For': PROVIDER_IP, ...headers },
  });
  return action({ request, params: {}, context: {} });
}

const urlEncoded = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('one-click unsubscribe (RFC 8058)', () => {
  afterEach(() => vi.useRealTimers());
  it('unsubscribes from a URL-encoded body', async () => {
    const reader = await subscriber();
    const response = await post(
      Subscribers.manageToken(reader),
      'List-Unsubscribe=One-Click',
      urlEncoded,
    );
    expect(response.status).toBe(200);
    expect((await Subscribers.byId(reader.id))?.status).toBe('unsubscribed');
  });

  it('reads the media type whatever its case', async () => {
    const reader = await subscriber();
    const response = await post(Subscribers.manageToken(reader), 'List-Unsubscribe=One-Click', {
      'Content-Type': 'Application/X-WWW-Form-Urlencoded',
    });
    expect(response.status).toBe(200);
    expect((await Subscribers.byId(reader.id))?.status).toBe('unsubscribed');
  });

  it('unsubscribes from a multipart/form-data body', async () => {
    const reader = await subscriber();
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const response = await post(Subscribers.manageToken(reader), form);
    expect(response.status).toBe(200);
    expect((await Subscribers.byId(reader.id))?.status).toBe('unsubscribed');
  });

  it('refuses other bodies and types with a 4xx and keeps the subscription', async () => {
    const reader = await subscriber();
    const token = Subscribers.manageToken(reader);
    const malformed = { 'Content-Type': 'multipart/form-data; boundary=x' };
    const cases: [BodyInit, Record<string, string>, number][] = [
      ['List-Unsubscribe=Maybe', urlEncoded, 400],
      ['something=else', urlEncoded, 400],
      ['{"List-Unsubscribe":"One-Click"}', { 'Content-Type': 'application/json' }, 415],
      ['--x\r\nnot a part', malformed, 400],
      [`List-Unsubscribe=One-Click&pad=${'x'.repeat(5000)}`, urlEncoded, 413],
    ];
    for (const [body, headers, status] of cases) {
      expect((await post(token, body, headers)).status, String(body).slice(0, 40)).toBe(status);
    }
    expect((await post('forged.token', 'List-Unsubscribe=One-Click', urlEncoded)).status).toBe(400);
    expect((await Subscribers.byId(reader.id))?.status).toBe('pending');
  });

  it(
    "serves many readers posting from one mail provider's address",
    { timeout: 60_000 },
    async () => {
      const audience = await createAudience();
      const readers = await mapPool(
        Array.from({ length: 35 }, (_, i) => i),
        8,
        () => subscriber(audience.id),
      );
      const statuses = await mapPool(
        readers,
        8,
        async (reader) =>
          (await post(Subscribers.manageToken(reader), 'List-Unsubscribe=One-Click', urlEncoded))
            .status,
      );
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    },
  );

  it('limits repeated posts for one reader', async () => {
    // Mid-window, so the eleven posts never straddle two of the limit's fixed windows.
    const windowMs = RateLimit.LIMITS.oneClickPerSubscriber.windowSeconds * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / windowMs) * windowMs + windowMs / 2);
    const token = Subscribers.manageToken(await subscriber());
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await post(token, 'List-Unsubscribe=One-Click', urlEncoded)).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("a stale link's posts do not use up the current link's allowance", async () => {
    const reader = await subscriber();
    const stale = Subscribers.manageToken(reader);
    for (let i = 0; i < 11; i++) await post(stale, 'List-Unsubscribe=One-Click', urlEncoded);
    const current = Subscribers.manageToken({ id: reader.id, linkVersion: 1 });
    await SubscriberEntity.update({ id: reader.id }).set({ linkVersion: 1 }).go();
    const response = await post(current, 'List-Unsubscribe=One-Click', urlEncoded);
    expect(response.status).toBe(200);
  });
});
