import type { GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Auth from '#core/auth';
import { db } from '#core/db';
import * as Tokens from '#core/tokens';
import { SessionEntity } from './session-entity';

const userName = () => `admin-${ulid().toLowerCase()}`;
/** A fresh caller address per test, so no test shares a throttle window with another. */
const address = () => `198.51.100.${ulid()}`;
const password = 'correct horse battery staple';
/** A fixed moment early in a 15-minute window: the throttle tests never straddle two windows. */
const IN_ONE_WINDOW = Date.UTC(2031, 0, 6, 9, 0, 5);

/** 401 comes only after the password was verified; 429 refuses before verifying. */
const statuses = (results: PromiseSettledResult<unknown>[]) =>
  results.map((result) =>
    result.status === 'rejected' ? (result.reason as { status: number }).status : 200,
  );
const tally = (codes: number[]) =>
  codes.reduce<Record<number, number>>(
    (all, code) => ({ ...all, [code]: (all[code] ?? 0) + 1 }),
    {},
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe('admin sign-in', () => {
  it('creates an admin once, hashing the password with argon2id', async () => {
    const name = userName();
    const first = await Auth.ensureAdmin({ userName: name, password });
    expect(first).toMatchObject({ created: true, generated: false });
    expect(await Auth.ensureAdmin({ userName: name })).toEqual({ created: false });
    const stored = await Auth.byUserName(name.toUpperCase());
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored?.passwordHash).not.toContain(password);
  });

  it('stores hashes with the pinned argon2id parameters', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const stored = await Auth.byUserName(name);
    const { memoryCost, timeCost, parallelism } = Auth.PASSWORD_HASHING;
    expect(stored?.passwordHash).toMatch(
      new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},t=${timeCost},p=${parallelism}\\$`),
    );
    expect(Auth.PASSWORD_HASHING).toMatchObject({
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
  });

  it('generates a password when none is given, and that password signs in', async () => {
    const name = userName();
    const created = await Auth.ensureAdmin({ userName: name });
    expect(created).toMatchObject({ created: true, generated: true });
    const generated = (created as { password: string }).password;
    expect(generated.length).toBeGreaterThanOrEqual(16);
    await expect(
      Auth.authorize({ userName: name, password: generated, ip: address() }),
    ).resolves.toBeDefined();
  });

  it('signs in, finds the session, and signs out', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { token, user } = await Auth.authorize({ userName: name, password, ip: address() });
    expect(user).toMatchObject({ userName: name, role: Auth.ROLES.ADMIN });
    expect(await Auth.sessionUser(token)).toMatchObject({ id: user.id });
    await Auth.signOut(token);
    expect(await Auth.sessionUser(token)).toBeUndefined();
    expect(await Auth.sessionUser('forged-token')).toBeUndefined();
  });

  it('answers the same message for a wrong password and an unknown user', async () => {
    const name = userName();
    const ip = address();
    await Auth.ensureAdmin({ userName: name, password });
    for (const attempt of [
      { userName: name, password: 'wrong password!' },
      { userName: userName(), password },
      { userName: '', password: '' },
    ]) {
      await expect(Auth.authorize({ ...attempt, ip })).rejects.toMatchObject({
        code: 'UNAUTH_USER_LOGIN',
        message: 'Access denied: Invalid credentials',
        status: 401,
      });
    }
  });

  it('never counts successful sign-ins against the limit', async () => {
    const name = userName();
    const ip = address();
    await Auth.ensureAdmin({ userName: name, password });
    for (let i = 0; i < 7; i++) {
      const { token } = await Auth.authorize({ userName: name, password, ip }, IN_ONE_WINDOW);
      expect(token).toMatch(/^[\w-]{43}$/);
    }
    // Seven successes used none of the five failures this address may have.
    for (let i = 0; i < 5; i++) {
      await expect(
        Auth.authorize({ userName: name, password: 'nope nope nope', ip }, IN_ONE_WINDOW),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      Auth.authorize({ userName: name, password, ip }, IN_ONE_WINDOW),
    ).rejects.toMatchObject({ status: 429 });
  });

  it('throttles repeated failures from one address, not the user elsewhere', async () => {
    const name = userName();
    const ip = address();
    await Auth.ensureAdmin({ userName: name, password });
    for (let i = 0; i < 5; i++) {
      await expect(
        Auth.authorize({ userName: name, password: 'nope nope nope', ip }, IN_ONE_WINDOW),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      Auth.authorize({ userName: name, password, ip }, IN_ONE_WINDOW),
    ).rejects.toMatchObject({
      code: 'UNAUTH_USER_LOGIN_THROTTLED',
      message: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
      status: 429,
    });
    await expect(
      Auth.authorize({ userName: name, password, ip: address() }, IN_ONE_WINDOW),
    ).resolves.toMatchObject({ user: { userName: name } });
  });

  it('verifies at most the limit of 40 parallel wrong passwords from one address', async () => {
    const name = userName();
    const ip = address();
    await Auth.ensureAdmin({ userName: name, password });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        Auth.authorize({ userName: name, password: `wrong password ${i}`, ip }, IN_ONE_WINDOW),
      ),
    );
    expect(tally(statuses(results))).toEqual({ 401: 5, 429: 35 });
  });

  it('caps failures per user name across 40 parallel addresses', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        Auth.authorize(
          { userName: name, password: `wrong password ${i}`, ip: address() },
          IN_ONE_WINDOW,
        ),
      ),
    );
    expect(Auth.LOGIN_LIMIT_PER_USER_NAME.max).toBe(10);
    expect(tally(statuses(results))).toEqual({ 401: 10, 429: 30 });
  });

  it('refuses guesses from one address across the boundary of two windows', async () => {
    const name = userName();
    const ip = address();
    await Auth.ensureAdmin({ userName: name, password });
    const boundary = Date.UTC(2031, 0, 6, 9, 15);
    // Ten guesses in five seconds, half of them before the quarter hour turns.
    const results = [];
    for (let i = 0; i < 10; i++) {
      const at = boundary - 2_500 + i * 500;
      results.push(
        await Auth.authorize({ userName: name, password: `wrong password ${i}`, ip }, at).then(
          (value) => value,
          (error: unknown) => error,
        ),
      );
    }
    expect(results.map((result) => (result as { status: number }).status)).toEqual([
      401, 401, 401, 401, 401, 429, 429, 429, 429, 429,
    ]);
  });

  it("keeps a browser that signed in before out of the user name's lockout", async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { deviceToken } = await Auth.authorize(
      { userName: name, password, ip: address() },
      IN_ONE_WINDOW,
    );
    // Ten failures from ten addresses lock the name for every browser without its device token.
    for (let i = 0; i < 10; i++) {
      await expect(
        Auth.authorize(
          { userName: name, password: 'nope nope nope', ip: address() },
          IN_ONE_WINDOW,
        ),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      Auth.authorize({ userName: name, password, ip: address() }, IN_ONE_WINDOW),
    ).rejects.toMatchObject({ code: 'UNAUTH_USER_LOGIN_THROTTLED', status: 429 });
    // Tokens that do not prove this browser signed in to this name pass no lock.
    const other = userName();
    await Auth.ensureAdmin({ userName: other, password });
    const otherToken = (await Auth.authorize({ userName: other, password, ip: address() }))
      .deviceToken;
    const [, signature] = deviceToken.split('.');
    const subject = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { sub: string })
        .sub;
    const nonce = subject(deviceToken).split(':')[0]!;
    const forged = `${Buffer.from(
      JSON.stringify({ p: 'admin-device', exp: 2_000_000_000, sub: `${nonce}:${name}x` }),
    ).toString('base64url')}.${signature}`;
    const month = Auth.DEVICE_TOKEN_TTL_SECONDS * 1000;
    for (const stranger of [
      otherToken,
      forged,
      `${deviceToken}x`,
      Tokens.sign('reader-device', 3600, `${nonce}:${name}`, IN_ONE_WINDOW),
      Tokens.sign('admin-device', 3600, `${nonce}:${name}`, IN_ONE_WINDOW - month),
      Tokens.sign('admin-device', 3600, name, IN_ONE_WINDOW),
    ]) {
      await expect(
        Auth.authorize(
          { userName: name, password, ip: address(), deviceToken: stranger },
          IN_ONE_WINDOW,
        ),
        stranger,
      ).rejects.toMatchObject({ status: 429 });
    }
    const known = await Auth.authorize(
      { userName: ` ${name.toUpperCase()}`, password, ip: address(), deviceToken },
      IN_ONE_WINDOW,
    );
    expect(await Auth.sessionUser(known.token)).toMatchObject({ userName: name });
    // Its new token is just as good.
    await expect(
      Auth.authorize(
        { userName: name, password, ip: address(), deviceToken: known.deviceToken },
        IN_ONE_WINDOW,
      ),
    ).resolves.toMatchObject({ user: { userName: name } });
  });

  it('limits a known browser on its own, and its address still', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { deviceToken } = await Auth.authorize(
      { userName: name, password, ip: address() },
      IN_ONE_WINDOW,
    );
    const ip = address();
    for (let i = 0; i < 5; i++) {
      await expect(
        Auth.authorize(
          { userName: name, password: 'nope nope nope', ip, deviceToken },
          IN_ONE_WINDOW,
        ),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      Auth.authorize({ userName: name, password, ip, deviceToken }, IN_ONE_WINDOW),
    ).rejects.toMatchObject({ status: 429 });
    // A stolen token, tried from many addresses, gets the device's ten guesses in all.
    for (let i = 0; i < 5; i++) {
      await expect(
        Auth.authorize(
          { userName: name, password: 'nope nope nope', ip: address(), deviceToken },
          IN_ONE_WINDOW,
        ),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      Auth.authorize({ userName: name, password, ip: address(), deviceToken }, IN_ONE_WINDOW),
    ).rejects.toMatchObject({ status: 429 });
    // Those failures were the device's, not the name's: a browser without a token still signs in.
    await expect(
      Auth.authorize({ userName: name, password, ip: address() }, IN_ONE_WINDOW),
    ).resolves.toMatchObject({ user: { userName: name } });
  });

  it('reads the session and its admin strongly consistent, so sign-in is seen at once', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { token } = await Auth.authorize({ userName: name, password, ip: address() });
    const send = vi.spyOn(db().client, 'send');
    expect(await Auth.sessionUser(token)).toMatchObject({ userName: name });
    const gets = send.mock.calls
      .map(([command]) => command as { constructor: { name: string }; input: GetCommandInput })
      .filter((command) => command.constructor.name === 'GetCommand')
      .map((command) => command.input);
    expect(gets.map(({ Key }) => String(Key?.pk).split('#')[0])).toEqual(['session', 'systemUser']);
    for (const input of gets) expect(input.ConsistentRead).toBe(true);
  });

  it('refuses an expired session', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { token } = await Auth.authorize({ userName: name, password, ip: address() });
    const { createHash } = await import('node:crypto');
    await SessionEntity.patch({ tokenHash: createHash('sha256').update(token).digest('hex') })
      .set({ expiresAt: Math.floor(Date.now() / 1000) - 1 })
      .go();
    expect(await Auth.sessionUser(token)).toBeUndefined();
  });

  it('refuses a taken user name and a short password', async () => {
    const name = userName();
    await Auth.createSystemUser({ userName: name, name: 'Ada', password });
    await expect(
      Auth.createSystemUser({ userName: name.toUpperCase(), name: 'Bob', password }),
    ).rejects.toMatchObject({ status: 409 });
    await expect(
      Auth.createSystemUser({ userName: userName(), name: 'Cy', password: 'short' }),
    ).rejects.toMatchObject({
      message: 'A password has at least 12 characters',
    });
  });
});
