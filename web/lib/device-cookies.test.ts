// The sign-in device cookies on an https site: Secure, like the session cookies beside them.
// PUBLIC_URL is set before anything in this file reads the configuration (once, on first use).
import { afterAll, expect, it, vi } from 'vitest';
import { deviceCookie } from './admin.server';
import { userDeviceCookie } from './user.server';

vi.stubEnv('PUBLIC_URL', 'https://cluefeed.example');
afterAll(() => vi.unstubAllEnvs());

it('marks both device cookies Secure when PUBLIC_URL is https', async () => {
  expect(await deviceCookie().serialize('token')).toMatch(
    /^cluefeed_admin_device=[^;]+; Max-Age=2592000; Path=\/admin-panel\/authorize; HttpOnly; Secure; SameSite=Lax$/,
  );
  expect(await userDeviceCookie().serialize('token')).toMatch(
    /^cluefeed_device=[^;]+; Max-Age=2592000; Path=\/login; HttpOnly; Secure; SameSite=Lax$/,
  );
});
