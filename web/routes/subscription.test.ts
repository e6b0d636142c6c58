import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { action } from './subscription';

async function manageToken() {
  const audience = await createAudience();
  const { subscriber } = await Subscribers.subscribe({
    email: `p-${ulid().toLowerCase()}@example.org`,
    audienceId: audience.id,
  });
  return { token: Subscribers.manageToken(subscriber), subscriber };
}

type Answer = { init: { status?: number } | null; data: unknown };

async function send(
  token: string,
  body: string,
  type = 'application/x-www-form-urlencoded',
): Promise<Answer> {
  const request = new Request(`http://localhost/subscription?subscriberHash=${token}`, {
    method: 'POST',
    body,
    headers: {
      'Content-Type': type,
      'X-Forwarded-For': `10.3.0.${Math.floor(Math.random() * 250)}`,
    },
  });
  const result = await action({ request, params: {}, context: {} });
  if (result instanceof Response) throw new Error(`Unexpected response ${result.status}`);
  return result as Answer;
}

describe('preferences action', () => {
  it('answers bad input with a 4xx and changes nothing', async () => {
    const { token, subscriber } = await manageToken();
    const cases: [string, string, number][] = [
      ['intent=bogus', 'application/x-www-form-urlencoded', 400],
      ['intent=email&email=not-an-email', 'application/x-www-form-urlencoded', 400],
      ['intent=toggle&audienceId=', 'application/x-www-form-urlencoded', 400],
      [
        `intent=toggle&audienceId=${'x'.repeat(500)}&subscribed=true`,
        'application/x-www-form-urlencoded',
        400,
      ],
      ['{"intent":"unsubscribe"}', 'application/json', 415],
    ];
    for (const [body, type, status] of cases) {
      const result = await send(token, body, type);
      expect(result.init?.status, body).toBe(status);
    }
    expect(await Subscribers.byId(subscriber.id)).toMatchObject({
      email: subscriber.email,
      status: 'pending',
    });
  });

  it('refuses a forged token', async () => {
    const result = await send('forged.token', 'intent=unsubscribe');
    expect(result.init?.status).toBe(400);
    expect(result.data).toMatchObject({
      ok: false,
      error: 'Could not verify subscription. Invalid or broken link',
    });
  });
});
