import { createHash, randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { countStorageCalls } from '#core/db';
import * as Tokens from '#core/tokens';
import * as Users from '#core/users';
import { readerWithPassword, READER_PASSWORD } from '#tests/integration/readers';
import { refusal } from '#tests/integration/refusal';

/** A fresh address per attempt, with no device token, so no test shares another's throttle. */
const client = () => ({ ip: `198.51.100.${ulid()}` });
const { USER_SESSION_REPLACED_GRACE_SECONDS } = Users;
const HOUR = 3600 * 1000;

const INVALID = { message: 'Access denied: Invalid credentials', status: 401 };

describe('reader sign-in', () => {
  it('signs a reader in by e-mail in any case, and the session names them', async () => {
    const { user, email } = await readerWithPassword({ clues: ['build DeFi protocols'] });
    const { token, user: signedIn } = await Users.signIn(
      { login: `  ${email.toUpperCase()} `, password: READER_PASSWORD },
      client(),
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
      const { user: signedIn } = await Users.signIn({ login, password: READER_PASSWORD }, client());
      expect(signedIn.id, login).toBe(user.id);
    }
    const wide = await readerWithPassword({ domain: 'ｅｘａｍｐｌｅ.org' });
    expect(wide.user.email).toBe(`${wide.email.split('@')[0]}@example.org`);
    const { user: signedIn } = await Users.signIn(
      { login: wide.user.email, password: READER_PASSWORD },
      client(),
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
      expect(
        await refusal(Users.signIn(input, client())),
        JSON.stringify(input).slice(0, 80),
      ).toEqual(INVALID);
    }
  });

  it('refuses input that is not text with a 400', async () => {
    expect(
      (await refusal(Users.signIn({ login: 3, password: null } as never, client()))).status,
    ).toBe(400);
  });

  it('refuses an inactive reader and a reader without a password, with the same message', async () => {
    const inactive = await readerWithPassword({ isActive: false });
    const noPassword = await readerWithPassword({ password: null });
    for (const { email } of [inactive, noPassword]) {
      expect(
        await refusal(Users.signIn({ login: email, password: READER_PASSWORD }, client())),
      ).toEqual(INVALID);
    }
    // The password nobody set is not an empty one either.
    expect(
      await refusal(Users.signIn({ login: noPassword.email, password: '' }, client())),
    ).toEqual(INVALID);
  });

  it('ends a session when its reader is deactivated', async () => {
    const { user, email } = await readerWithPassword();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, client());
    await Users.update(user.id, { isActive: false });
    expect(await Users.sessionUser(token)).toBeUndefined();
  });

  it('throttles failures per address, then per login, with a 429', async () => {
    const { email } = await readerWithPassword();
    const address = client();
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
      await refusal(Users.signIn({ login: email, password: 'wrong-password-1' }, client()));
    }
    expect(
      (await refusal(Users.signIn({ login: email, password: READER_PASSWORD }, client()))).status,
    ).toBe(429);
  });

  it('refuses guesses from one address across the boundary of two windows', async () => {
    const { email } = await readerWithPassword();
    const address = client();
    const boundary = Date.UTC(2031, 0, 6, 9, 15);
    const statuses: number[] = [];
    // Ten guesses in five seconds, half of them before the quarter hour turns.
    for (let i = 0; i < 10; i++) {
      const at = boundary - 2_500 + i * 500;
      const guess = Users.signIn({ login: email, password: `wrong-password-${i}` }, address, at);
      statuses.push((await refusal(guess)).status!);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it("keeps a browser that signed in before out of the login's lockout", async () => {
    const { email } = await readerWithPassword();
    const other = await readerWithPassword();
    const now = Date.UTC(2031, 0, 6, 9, 0, 5);
    const right = { login: email, password: READER_PASSWORD };
    const { deviceToken } = await Users.signIn(right, client(), now);
    const { deviceToken: othersToken } = await Users.signIn(
      { login: other.email, password: READER_PASSWORD },
      client(),
      now,
    );
    const nonce = deviceToken.split('.')[0]!;
    for (let i = 0; i < Users.USER_LOGIN_LIMIT_PER_LOGIN.max; i += 1) {
      await refusal(Users.signIn({ login: email, password: 'wrong-password-1' }, client(), now));
    }
    expect((await refusal(Users.signIn(right, client(), now))).status).toBe(429);
    for (const stranger of [
      othersToken,
      `${nonce}.AAAA`,
      // The admin's kind of device token for the same login.
      Tokens.sign('admin-device', 3600, `n0nce:${email}`, now),
    ]) {
      const attempt = Users.signIn(right, { ...client(), deviceToken: stranger }, now);
      expect((await refusal(attempt)).status, stranger).toBe(429);
    }
    const known = await Users.signIn(
      { login: email.toUpperCase(), password: READER_PASSWORD },
      { ...client(), deviceToken },
      now,
    );
    expect((await Users.sessionUser(known.token, now))?.user.email).toBe(email);
    // Failures from the known browser count for it alone, from any address.
    for (let i = 0; i < Users.USER_LOGIN_LIMIT_PER_DEVICE.max; i += 1) {
      const guess = Users.signIn(
        { login: email, password: 'wrong-password-1' },
        { ...client(), deviceToken: known.deviceToken },
        now,
      );
      expect((await refusal(guess)).status).toBe(401);
    }
    const locked = Users.signIn(right, { ...client(), deviceToken: known.deviceToken }, now);
    expect((await refusal(locked)).status).toBe(429);
  });

  it('gives a successful sign-in its places back', async () => {
    const { email } = await readerWithPassword();
    const address = client();
    for (let i = 0; i < Users.USER_LOGIN_LIMIT_PER_IP.max + 2; i += 1) {
      await Users.signIn({ login: email, password: READER_PASSWORD }, address);
    }
  });

  it('ignores tokens that name no session, and signs out', async () => {
    const { email } = await readerWithPassword();
    const { token } = await Users.signIn({ login: email, password: READER_PASSWORD }, client());
    for (const stranger of [undefined, '', 'forged', 'x'.repeat(500), token.slice(0, -1)]) {
      expect(await Users.sessionUser(stranger), String(stranger)).toBeUndefined();
    }
    await Users.signOut(token);
    expect(await Users.sessionUser(token)).toBeUndefined();
    await Users.signOut('forged');
  });

  it('reads a session and its reader in one call, and never signs in as the reader a forged token names', async () => {
    const [ada, bob] = await Promise.all([readerWithPassword(), readerWithPassword()]);
    const { token } = await Users.signIn({ login: ada.email, password: READER_PASSWORD }, client());
    expect(token.startsWith(`${ada.user.id}.`)).toBe(true);
    const read = await countStorageCalls(() => Users.sessionUser(token));
    expect(read.result?.user.id).toBe(ada.user.id);
    expect(read.calls).toEqual({ 'dynamodb BatchGetItem': 1 });
    // Ada's secret under Bob's id: the session belongs to Ada, so nobody is signed in.
    const forged = `${bob.user.id}.${token.split('.')[1]}`;
    expect(await Users.sessionUser(forged)).toBeUndefined();
  });

  it('still reads a session whose token was issued before tokens named their reader', async () => {
    const { user } = await readerWithPassword();
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await Users.UserSessionEntity.create({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId: user.id,
      signedInAt: now.toISOString(),
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + 3600,
    }).go();
    const read = await countStorageCalls(() => Users.sessionUser(token));
    expect(read.result?.user.id).toBe(user.id);
    expect(read.total).toBe(2);
  });

  it('renews a session older than 3 hours with a new token; the old one works only its grace', async () => {
    const { user, email } = await readerWithPassword();
    const start = Date.now();
    const { token } = await Users.signIn(
      { login: email, password: READER_PASSWORD },
      client(),
      start,
    );
    expect((await Users.sessionUser(token, start + 3 * HOUR))?.renewedToken).toBeUndefined();
    const renewed = await Users.sessionUser(token, start + 3 * HOUR + 1000);
    expect(renewed?.user.id).toBe(user.id);
    expect(renewed?.renewedToken).toMatch(new RegExp(`^${user.id}\\.[\\w-]{43}$`));
    expect(renewed?.renewedToken).not.toBe(token);
    // A request with the old cookie during its grace (one already on its way, or the next one
    // when the renewal's answer was lost) is answered and handed the same new token again.
    expect(await Users.sessionUser(token, start + 3 * HOUR + 2000)).toEqual({
      user: renewed!.user,
      renewedToken: renewed!.renewedToken,
    });
    const graceEnds = start + 3 * HOUR + 1000 + USER_SESSION_REPLACED_GRACE_SECONDS * 1000;
    expect(await Users.sessionUser(token, graceEnds + 1000)).toBeUndefined();
    const next = await Users.sessionUser(renewed!.renewedToken, start + 4 * HOUR);
    expect(next).toEqual({ user: renewed!.user });
  });

  /** A reader signed in 4 hours ago, whose token was just renewed (the old one in its grace). */
  async function renewedSession() {
    const { email } = await readerWithPassword();
    const { token } = await Users.signIn(
      { login: email, password: READER_PASSWORD },
      client(),
      Date.now() - 4 * HOUR,
    );
    return { token, renewed: await Users.sessionUser(token) };
  }

  it('keeps a reader whose renewal answer was lost signed in: the old cookie brings the new token', async () => {
    const { token, renewed } = await renewedSession();
    // The browser never got the renewal's cookie; its next request comes with the old one.
    const again = await Users.sessionUser(token);
    expect(again?.renewedToken).toBe(renewed?.renewedToken);
    // With the token handed again the reader stays signed in after the old one's grace.
    const afterGrace = Date.now() + (USER_SESSION_REPLACED_GRACE_SECONDS + 5) * 1000;
    expect(await Users.sessionUser(token, afterGrace)).toBeUndefined();
    expect((await Users.sessionUser(again!.renewedToken, afterGrace))?.user.id).toBe(
      renewed?.user.id,
    );
  });

  it('hands the old cookie no token but the successor stored for it (another secret derives another)', async () => {
    const { token } = await renewedSession();
    const tokenHash = createHash('sha256').update(token).digest('hex');
    // As if the successor had been made under another APP_SECRET: its hash is not the derived one.
    await Users.UserSessionEntity.patch({ tokenHash })
      .set({ replacedBy: 'ab'.repeat(32) })
      .go();
    const again = await Users.sessionUser(token);
    expect(again?.user).toBeDefined();
    expect(again?.renewedToken).toBeUndefined();
  });

  it('ends the replaced token too when the reader signs out during its grace', async () => {
    const { token, renewed } = await renewedSession();
    expect(renewed?.renewedToken).toBeDefined();
    expect(await Users.sessionUser(token)).toBeDefined();
    await Users.signOut(renewed!.renewedToken);
    expect(await Users.sessionUser(renewed!.renewedToken)).toBeUndefined();
    expect(await Users.sessionUser(token)).toBeUndefined();
  });

  it('ends the new token too when the reader signs out with the replaced one during its grace', async () => {
    const { token, renewed } = await renewedSession();
    await Users.signOut(token);
    expect(await Users.sessionUser(token)).toBeUndefined();
    expect(await Users.sessionUser(renewed!.renewedToken)).toBeUndefined();
  });

  it('lets one of two simultaneous renewals replace the session; both requests hand out its token', async () => {
    const { email } = await readerWithPassword();
    const start = Date.now();
    const { token } = await Users.signIn(
      { login: email, password: READER_PASSWORD },
      client(),
      start,
    );
    const later = start + 4 * HOUR;
    const [a, b] = await Promise.all([
      Users.sessionUser(token, later),
      Users.sessionUser(token, later),
    ]);
    expect(a?.user.email).toBe(email);
    expect(b?.user.email).toBe(email);
    // One write replaced the session; both requests hand the browser its token.
    expect(a?.renewedToken).toEqual(expect.any(String));
    expect(b?.renewedToken).toBe(a?.renewedToken);
    expect(await Users.sessionUser(a!.renewedToken, later)).toBeDefined();
    // A third request that left with the old cookie just after the renewal is answered too.
    const third = await Users.sessionUser(token, later + 1000);
    expect(third?.user.email).toBe(email);
    expect(third?.renewedToken).toBe(a?.renewedToken);
  });

  it('ends a session a week after its last use, and 30 days after sign-in however renewed', async () => {
    const { email } = await readerWithPassword();
    const start = Date.now();
    const { token } = await Users.signIn(
      { login: email, password: READER_PASSWORD },
      client(),
      start,
    );
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
