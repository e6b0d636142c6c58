// UserLogin: e-mail (or "username": a reader's e-mail is their user name) and password. Success
// goes to the returnUrl the guard gave (a path of this site only) or the feed; a reader already
// signed in goes straight there, by a document load: the feed's page has a policy of its own (it
// shows stories' images from their publishers' sites), which a client-side navigation from this
// page would not bring. Failure shows the message and clears the password.
import {
  data,
  redirectDocument,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { isVisibleError } from '#core/common';
import { SignInPassword } from '#web/components/sign-in-password';
import * as Users from '#core/users';
import { clientIp, readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import {
  optionalUser,
  requireSameSite,
  safeReturnPath,
  sessionCookieHeader,
  userDeviceCookie,
  userDeviceToken,
} from '#web/lib/user.server';

export const meta: MetaFunction = () => [{ title: 'Sign in · Cluefeed' }];
export const headers = privatePageHeaders;

const destination = (request: Request) =>
  safeReturnPath(new URL(request.url).searchParams.get('returnUrl')) ?? '/feed';

export async function loader({ request }: LoaderFunctionArgs) {
  const reader = await optionalUser(request);
  if (reader) throw redirectDocument(destination(request), { headers: reader.headers });
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  // A forged sign-in would put a victim into the attacker's session.
  requireSameSite(request);
  try {
    const form = await readForm(request);
    const { token, deviceToken } = await Users.signIn(
      { login: form.get('login') ?? '', password: form.get('password') ?? '' },
      { ip: clientIp(request), deviceToken: await userDeviceToken(request) },
    );
    const headers = new Headers(await sessionCookieHeader(token));
    headers.append('Set-Cookie', await userDeviceCookie().serialize(deviceToken));
    return redirectDocument(destination(request), { headers });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data(
      { error: error.message },
      { status: error.status, headers: { 'Cache-Control': 'no-store' } },
    );
  }
}

export default function UserLogin() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <section className="page narrow user-login">
      <Form method="post" className="user-login__form">
        <h1>Sign in</h1>
        {result?.error && (
          <p className="error-box" role="alert">
            {result.error}
          </p>
        )}
        <label htmlFor="login">E-mail or username</label>
        <input
          id="login"
          name="login"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={254}
          required
        />
        <SignInPassword refusal={result} maxLength={1024} />
        <button type="submit" className="button" disabled={navigation.state !== 'idle'}>
          Sign in
        </button>
      </Form>
    </section>
  );
}
