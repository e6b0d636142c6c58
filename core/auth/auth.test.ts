import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Auth from '#core/auth';
import { SessionEntity } from './session-entity';

const userName = () => `admin-${ulid().toLowerCase()}`;
const password = 'correct horse battery staple';

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

  it('generates a password when none is given, and that password signs in', async () => {
    const name = userName();
    const created = await Auth.ensureAdmin({ userName: name });
    expect(created).toMatchObject({ created: true, generated: true });
    const generated = (created as { password: string }).password;
    expect(generated.length).toBeGreaterThanOrEqual(16);
    await expect(
      Auth.authorize({ userName: name, password: generated, ip: '10.0.0.1' }),
    ).resolves.toBeDefined();
  });

  it('signs in, finds the session, and signs out', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { token, user } = await Auth.authorize({ userName: name, password, ip: '10.0.0.2' });
    expect(user).toMatchObject({ userName: name, role: Auth.ROLES.ADMIN });
    expect(await Auth.sessionUser(token)).toMatchObject({ id: user.id });
    await Auth.signOut(token);
    expect(await Auth.sessionUser(token)).toBeUndefined();
    expect(await Auth.sessionUser('forged-token')).toBeUndefined();
  });

  it('answers the same message for a wrong password and an unknown user', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    for (const attempt of [
      { userName: name, password: 'wrong password!' },
      { userName: userName(), password },
      { userName: '', password: '' },
    ]) {
      await expect(Auth.authorize({ ...attempt, ip: '10.0.0.3' })).rejects.toMatchObject({
        code: 'UNAUTH_USER_LOGIN',
        message: 'Access denied: Invalid credentials',
        status: 401,
      });
    }
  });

  it('never throttles successful sign-ins', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    for (let i = 0; i < 7; i++) await Auth.authorize({ userName: name, password, ip: '10.0.0.7' });
  });

  it('throttles repeated failures for one user name from one address', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    for (let i = 0; i < 5; i++) {
      await expect(
        Auth.authorize({ userName: name, password: 'nope nope nope', ip: '10.0.0.4' }),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      Auth.authorize({ userName: name, password, ip: '10.0.0.4' }),
    ).rejects.toMatchObject({ status: 429 });
    await expect(
      Auth.authorize({ userName: name, password, ip: '10.0.0.5' }),
    ).resolves.toBeDefined();
  });

  it('refuses an expired session', async () => {
    const name = userName();
    await Auth.ensureAdmin({ userName: name, password });
    const { token } = await Auth.authorize({ userName: name, password, ip: '10.0.0.6' });
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
