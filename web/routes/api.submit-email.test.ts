import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Tokens from '#core/tokens';
import * as Waitlist from '#core/waitlist';
import { action, loader } from './api.submit-email';
import { loader as tokenLoader } from './api.token';

const args = (request: Request) => ({ request, params: {}, context: {} });
let ip = 0;

function submit(body: string, headers: Record<string, string> = {}, fromIp = `10.0.0.${++ip}`) {
  return action(
    args(
      new Request('http://localhost/api/submit-email', {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': fromIp, ...headers },
      }),
    ),
  );
}

async function token() {
  const response = await tokenLoader(
    args(
      new Request('http://localhost/api/token', {
        headers: { 'X-Forwarded-For': `10.1.0.${++ip}` },
      }),
    ),
  );
  return ((await response.json()) as { token: string }).token;
}

async function errorOf(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as { error: { code: string; message: string } },
  };
}

describe('POST /api/submit-email', () => {
  it('stores the address once for a valid token, however often it is sent', async () => {
    const email = `reader-${ulid().toLowerCase()}@example.org`;
    const first = await submit(JSON.stringify({ email }), { 'X-API-Token': await token() });
    const second = await submit(JSON.stringify({ email: email.toUpperCase() }), {
      'X-API-Token': await token(),
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await Waitlist.byEmail(email)).toMatchObject({ email });
  });

  it('refuses a missing, forged or expired token with 401', async () => {
    const email = `reader-${ulid()}@example.org`;
    const expired = Tokens.sign('waitlist', 60, undefined, Date.now() - 120_000);
    const tokens: Record<string, string>[] = [
      {},
      { 'X-API-Token': 'forged.token' },
      { 'X-API-Token': expired },
    ];
    for (const headers of tokens) {
      const { status, body } = await errorOf(await submit(JSON.stringify({ email }), headers));
      expect(status).toBe(401);
      expect(body.error.message).toMatch(/reload the page/);
    }
    expect(await Waitlist.byEmail(email)).toBeUndefined();
  });

  it('explains a bad e-mail, bad JSON and an oversized body with a 4xx', async () => {
    const headers = { 'X-API-Token': await token() };
    expect(await errorOf(await submit(JSON.stringify({ email: 'nope' }), headers))).toEqual({
      status: 400,
      body: { error: { code: 'input.invalid', message: 'Please enter a valid email address' } },
    });
    expect((await errorOf(await submit('{not json', headers))).status).toBe(400);
    expect(
      (await errorOf(await submit(JSON.stringify({ email: `${'a'.repeat(2000)}@x.org` }), headers)))
        .status,
    ).toBe(413);
    expect(
      (
        await errorOf(
          await submit('email=a@b.org', {
            ...headers,
            'Content-Type': 'application/x-www-form-urlencoded',
          }),
        )
      ).status,
    ).toBe(415);
  });

  it('answers 429 after too many requests from one address', async () => {
    const from = `10.9.${++ip}.1`;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await submit(
        JSON.stringify({ email: `burst-${ulid()}@example.org` }),
        { 'X-API-Token': await token() },
        from,
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('refuses GET with 405', async () => {
    const response = await loader();
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });
});

describe('GET /api/token', () => {
  it('answers a token that is not cached', async () => {
    const response = await tokenLoader(args(new Request('http://localhost/api/token')));
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const { token } = (await response.json()) as { token: string };
    expect(Tokens.verify('waitlist', token)).toEqual({ ok: true });
  });
});
