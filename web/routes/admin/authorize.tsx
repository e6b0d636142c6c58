// AdminLogin: user name and password. Success goes to returnUrl, else the last admin route, else
// Content Automations; failure clears the password and shows the server's message.
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import * as Auth from '#core/auth';
import { isVisibleError } from '#core/common';
import { Logo } from '#web/components/logo';
import { SignInPassword } from '#web/components/sign-in-password';
import { clientIp, readForm } from '#web/lib/api.server';
import {
  deviceCookie,
  deviceToken,
  lastRouteCookie,
  requireSameOrigin,
  safeAdminPath,
  sessionCookie,
  sessionToken,
} from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [{ title: 'Sign in · Cluefeed admin' }];
export const headers = privatePageHeaders;
export const handle = { chrome: 'admin' };

async function destination(request: Request): Promise<string> {
  const returnUrl = safeAdminPath(new URL(request.url).searchParams.get('returnUrl'));
  const last = safeAdminPath(
    (await lastRouteCookie().parse(request.headers.get('Cookie'))) as string | null,
  );
  return returnUrl ?? last ?? '/admin-panel/content-automations';
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (await Auth.sessionUser(await sessionToken(request)))
    throw redirect(await destination(request));
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  // A forged sign-in would put a victim into the attacker's session.
  requireSameOrigin(request);
  try {
    const form = await readForm(request);
    const { token, deviceToken: device } = await Auth.authorize({
      userName: String(form.get('userName') ?? ''),
      password: String(form.get('password') ?? ''),
      ip: clientIp(request),
      deviceToken: await deviceToken(request),
    });
    const headers = new Headers();
    headers.append('Set-Cookie', await sessionCookie().serialize(token));
    headers.append('Set-Cookie', await deviceCookie().serialize(device));
    return redirect(await destination(request), { headers });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data(
      { error: error.message },
      { status: error.status, headers: { 'Cache-Control': 'no-store' } },
    );
  }
}

export default function AdminLogin() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <main id="main" className="admin-login">
      <Form method="post" className="admin-login__form">
        <Logo />
        <h1>Sign in to the admin panel</h1>
        {result?.error && (
          <p className="error-box" role="alert">
            {result.error}
          </p>
        )}
        <label htmlFor="userName">User name</label>
        <input id="userName" name="userName" autoComplete="username" required />
        <SignInPassword refusal={result} />
        <button type="submit" className="button" disabled={navigation.state !== 'idle'}>
          Sign in
        </button>
      </Form>
    </main>
  );
}
