import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Users from '#core/users';
import { readerWithPassword, READER_PASSWORD } from '#tests/integration/readers';

const ip = () => `198.51.100.${ulid()}`;
const HOUR = 3600 * 1000;

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { name?: string; message?: string; status?: number } | undefined;
  expect(error?.name, 'a VisibleError').toBe('VisibleError');
  return { message: error!.message, status: error!.status };
}

const INVALID = { message: 'Access denied: Invalid credentials', status: 401 };

describe('reader sign-in', () => {
  it('signs a reader in by e-mail in any case, and the session names them', async () => {
    const { user, email } = await readerWithPassword({ clues: ['build DeFi protocols'] });
    const { token, user: signedIn } = await Users.signIn(
      { login: `  ${email.toUpperCase()} `, password: READER_PASSWORD },
      ip(),
    );
    expect(signedIn.id).toBe(user.id);
    expect(signedIn).not.toHaveProperty('passwordHash');
    const session = await Users.sessionUser(token);
    expect(session?.user).toMatchObject({ id: user.id, email });
    expect(session?.user.descriptors?.map((d) => d.clue)).toEqual(['build DeFi protocols']);
    expect(session?.renewedToken).toBeUndefined();
  });

  it('signs a reader in by any spelling of their address: punycode or full-width domain', async () => {
    const { user, email } = await readerWithPassword({ domain: 'exämple.org' });
    const local = email.split('@')[0]!;
    for (const login of [email, `${local}@xn--exmple-cua.org`, `${local}@EXÄMPLE.ORG`]) {
      const { user: signedIn } = await Users.signIn({ login, password: READER_PASSWORD }, ip());
      expect(signedIn.id, login).toBe(user.id);
    }
    const wide = await readerWithPassword({ domain: 'ｅｘａｍｐｌｅ.org' });
    expect(wide.user.email).toBe(`${wide.email.split('@')[0]}@example.org`);
    const { user: signedIn } = await Users.signIn(
      { login: wide.user.email, password: READER_PASSWORD },
      ip(),
    );
    expect(signedIn.id).toBe(wide.user.id);
  });

  it('answers a wrong password, an unknown login and empty fields with one generic 401', async () => {
    const { email } = await readerWithPassword();
    for (const input of [
      { login: email, password: 'wrong-password-1' },
      { login: `nobody-${ulid()}@example.org`, password: READER_PASSWORD },
      { login: 'not an address', password: READER_PASSWORD },
      { login: '', password: '' },
      { login: email, password: '' },
      { login: 'x'.repeat(300), password: READER_PASSWORD },
      { login: email, password: 'x'.repeat(2000) },
    ]) {
      expect(await refusal(Users.signIn(input, ip())), JSON.stringify(input).slice(0, 80)).toEqual(
        INVALID,
      );
    }
  });

  it('refuses input that is not text with a 400', async () => {
    expect((await refusal(Users.signIn({ login: 3, password: null } as never, ip()))).status).toBe(
      400,
    );
  });

  it('refuses an inactive reader and a reader without a password, with the same message', async () => {
    const inactive = await readerWithPassword({ isActive: false });
    const noPassword = await readerWithPassword({ password: null });
    for (const { email } of [inactive, noPassword]) {
      expect(
        await refusal(Users.signIn({ login: email, password: READER_PASSWORD }, ip())),
      ).toEqual(INVALID);
    }
    // The password nobody set is not an empty one either.
    expect(await refusal(Users.signIn({ login: noPassword.email, password: '' }, ip()))).toEqual(
      INVALID,
    );
  });

  it('ends a session when its reader is deactivated', async () => {
    const { user, email } = await readerWithPassword();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, ip());
    await Users.update(user.id, { isActive: false });
    expect(await Users.sessionUser(token)).toBeUndefined();
  });

  it('throttles failures per address, then per login, with a 429', async () => {
    const { email } = await readerWithPassword();
    const address = ip();
    const limit = Users.USER_LOGIN_LIMIT_PER_IP.max;
    for (let i = 0; i < limit; i += 1) {
      await refusal(Users.signIn({ login: `nobody-${i}@example.org`, password: 'x' }, address));
    }
    // Even the right password waits once the address has used its attempts.
    expect(
      await refusal(Users.signIn({ login: email, password: READER_PASSWORD }, address)),
    ).toEqual({
      message: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
      status: 429,
    });
    for (let i = 0; i < Users.USER_LOGIN_LIMIT_PER_LOGIN.max; i += 1) {
      await refusal(Users.signIn({ login: email, password: 'wrong-password-1' }, ip()));
    }
    expect(
      (await refusal(Users.signIn({ login: email, password: READER_PASSWORD }, ip()))).status,
    ).toBe(429);
  });

  it('gives a successful sign-in its places back', async () => {
    const { email } = await readerWithPassword();
    const address = ip();
    for (let i = 0; i < Users.USER_LOGIN_LIMIT_PER_IP.max + 2; i += 1) {
      await Users.signIn({ login: email, password: READER_PASSWORD }, address);
    }
  });

  it('ignores tokens that name no session, and signs out', async () => {
    const { email } = await readerWithPassword();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, ip());
    for (const stranger of [undefined, '', 'forged', 'x'.repeat(500), token.slice(0, -1)]) {
      expect(await Users.sessionUser(stranger), String(stranger)).toBeUndefined();
    }
    await Users.signOut(token);
    expect(await Users.sessionUser(token)).toBeUndefined();
    await Users.signOut('forged');
  });

  it('renews a session older than 3 hours with a new token; the old one stops working', async () => {
    const { user, email } = await readerWithPassword();
    const start = Date.now();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, ip(), start);
    expect((await Users.sessionUser(token, start + 3 * HOUR))?.renewedToken).toBeUndefined();
    const renewed = await Users.sessionUser(token, start + 3 * HOUR + 1000);
    expect(renewed?.user.id).toBe(user.id);
    expect(renewed?.renewedToken).toMatch(/^[\w-]{43}$/);
    expect(renewed?.renewedToken).not.toBe(token);
    expect(await Users.sessionUser(token, start + 3 * HOUR + 2000)).toBeUndefined();
    const next = await Users.sessionUser(renewed!.renewedToken, start + 4 * HOUR);
    expect(next).toEqual({ user: renewed!.user });
  });

  it('lets one of two simultaneous renewals replace the session; both requests are answered', async () => {
    const { email } = await readerWithPassword();
    const start = Date.now();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, ip(), start);
    const later = start + 4 * HOUR;
    const [a, b] = await Promise.all([
      Users.sessionUser(token, later),
      Users.sessionUser(token, later),
    ]);
    expect(a?.user.email).toBe(email);
    expect(b?.user.email).toBe(email);
    const renewed = [a?.renewedToken, b?.renewedToken].filter(Boolean);
    expect(renewed).toHaveLength(1);
    expect(await Users.sessionUser(renewed[0], later)).toBeDefined();
  });

  it('ends a session a week after its last use, and 30 days after sign-in however renewed', async () => {
    const { email } = await readerWithPassword();
    const start = Date.now();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, ip(), start);
    expect(await Users.sessionUser(token, start + 7 * 24 * HOUR + 1000)).toBeUndefined();
    let current = token;
    let at = start;
    while (at + 6 * 24 * HOUR < start + 30 * 24 * HOUR) {
      at += 6 * 24 * HOUR;
      const session = await Users.sessionUser(current, at);
      expect(session, new Date(at).toISOString()).toBeDefined();
      current = session!.renewedToken ?? current;
    }
    expect(await Users.sessionUser(current, start + 30 * 24 * HOUR + 1000)).toBeUndefined();
  });
});
