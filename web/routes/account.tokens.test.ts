// /account/tokens through its loader and action: the guard, a token shown once, the limit's and
// the name's messages, and revoking only the reader's own tokens.
import { describe, expect, it } from 'vitest';
import * as ReaderTokens from '#core/reader-tokens';
import { call, readerCookie, request } from '#tests/integration/route-call';
import { readerWithFeed } from '#tests/integration/readers';
import { action, loader } from './account.tokens';

const ORIGIN = 'http://localhost';
const { READER_TOKEN_MESSAGES: MESSAGES } = ReaderTokens;

async function signedIn(name = 'Ada Reader') {
  const reader = await readerWithFeed([], name);
  return { ...reader, cookie: await readerCookie(reader.token) };
}

function post(fields: Record<string, string>, cookie?: string, origin: string | null = ORIGIN) {
  return call(
    action,
    request('/account/tokens', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(origin && { Origin: origin }),
        ...(cookie && { Cookie: cookie }),
      },
    }),
  );
}

const page = async (cookie: string) =>
  (await call(loader, request('/account/tokens', { headers: { Cookie: cookie } }))) as {
    status: number;
    data: { tokens: ReaderTokens.ReaderToken[]; max: number; apiUrl: string };
  };

describe('/account/tokens', () => {
  it('sends a visitor without a session to /login, and refuses a POST from another site', async () => {
    expect(await call(loader, request('/account/tokens'))).toMatchObject({
      status: 302,
      location: '/login?returnUrl=%2Faccount%2Ftokens',
    });
    expect(await post({ intent: 'create', name: 'x' })).toMatchObject({
      status: 302,
      location: '/login?returnUrl=%2Faccount%2Ftokens',
    });
    const { cookie, user } = await signedIn();
    for (const origin of [null, 'https://evil.example']) {
      expect((await post({ intent: 'create', name: 'x' }, cookie, origin)).status).toBe(403);
    }
    expect(await ReaderTokens.list(user.id)).toEqual([]);
  });

  it('shows a new token once, in the answer to its form; the list never holds it', async () => {
    const { cookie, user } = await signedIn();
    const created = await post({ intent: 'create', name: 'Morning digest' }, cookie);
    expect(created.status).toBe(200);
    const { token, name } = (created.data as { created: { token: string; name: string } }).created;
    expect(name).toBe('Morning digest');
    expect((await ReaderTokens.readerOf(token))?.reader.id).toBe(user.id);

    const listed = await page(cookie);
    expect(listed.status).toBe(200);
    expect(listed.data.tokens).toEqual([expect.objectContaining({ name: 'Morning digest' })]);
    expect(JSON.stringify(listed.data)).not.toContain(token);
    expect(listed.data.apiUrl).toMatch(/\/api\/users\/me\/articles$/);
  });

  it('answers a missing or long name and a sixth token with their messages', async () => {
    const { cookie } = await signedIn();
    expect(await post({ intent: 'create', name: ' ' }, cookie)).toMatchObject({
      status: 400,
      data: { error: MESSAGES.nameRequired, intent: 'create' },
    });
    expect(await post({ intent: 'create' }, cookie)).toMatchObject({
      status: 400,
      data: { error: MESSAGES.nameRequired },
    });
    expect(await post({ intent: 'create', name: 'n'.repeat(61) }, cookie)).toMatchObject({
      status: 400,
      data: { error: MESSAGES.nameTooLong },
    });
    for (let index = 0; index < ReaderTokens.MAX_TOKENS_PER_READER; index++) {
      expect((await post({ intent: 'create', name: `script ${index}` }, cookie)).status).toBe(200);
    }
    expect(await post({ intent: 'create', name: 'sixth' }, cookie)).toMatchObject({
      status: 409,
      data: { error: MESSAGES.tooMany },
    });
    expect(await post({ intent: 'rename' }, cookie)).toMatchObject({ status: 400 });
  });

  it("revokes the reader's own token; another reader's token id answers as a missing one", async () => {
    const alice = await signedIn('Alice');
    const bob = await signedIn('Bob');
    await post({ intent: 'create', name: "Alice's script" }, alice.cookie);
    const bobs = await post({ intent: 'create', name: "Bob's script" }, bob.cookie);
    const bobToken = (bobs.data as { created: { token: string } }).created.token;
    const [aliceEntry] = (await page(alice.cookie)).data.tokens;
    const [bobEntry] = (await page(bob.cookie)).data.tokens;
    expect(JSON.stringify((await page(alice.cookie)).data)).not.toContain("Bob's script");

    expect(await post({ intent: 'revoke', id: bobEntry!.id }, alice.cookie)).toMatchObject({
      status: 404,
      data: { error: MESSAGES.notFound },
    });
    expect((await ReaderTokens.readerOf(bobToken))?.reader.id).toBe(bob.user.id);

    expect(await post({ intent: 'revoke', id: aliceEntry!.id }, alice.cookie)).toMatchObject({
      status: 200,
      data: { revoked: "Alice's script" },
    });
    expect((await page(alice.cookie)).data.tokens).toEqual([]);
    expect((await page(bob.cookie)).data.tokens).toHaveLength(1);
  });
});
