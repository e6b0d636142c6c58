// AccessTokens (ADR 0040): the signed-in reader's personal access tokens for the reader API. A new
// token is shown once, in the answer to the form that created it; the list shows each token's
// name and dates and a Revoke button. Plain forms: it all works without JavaScript.
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { isVisibleError } from '#core/common';
import { config } from '#core/config';
import * as ReaderTokens from '#core/reader-tokens';
import { readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { formatTime } from '#web/lib/format';
import { requireUser } from '#web/lib/user.server';

export const meta: MetaFunction = () => [{ title: 'Access tokens · Cluefeed' }];
export const headers = privatePageHeaders;
export const handle = { access: 'user' };

const PRIVATE = { 'Cache-Control': 'private, no-store' };
const API_PATH = '/api/users/me/articles';

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requireUser(request);
  return data(
    {
      tokens: await ReaderTokens.list(user.id),
      max: ReaderTokens.MAX_TOKENS_PER_READER,
      nameMax: ReaderTokens.TOKEN_NAME_MAX,
      apiUrl: new URL(API_PATH, config().PUBLIC_URL).toString(),
    },
    { headers: { ...headers, ...PRIVATE } },
  );
}

type Outcome =
  | { created: { name: string; token: string } }
  | { revoked: string }
  | { error: string; intent: string };

const NO_INTENT = 'Choose to create or to revoke a token';

export async function action({ request }: ActionFunctionArgs) {
  const { user, headers } = await requireUser(request);
  const answer = (outcome: Outcome, status = 200) =>
    data(outcome, { status, headers: { ...headers, ...PRIVATE } });
  let intent = '';
  try {
    const form = await readForm(request);
    intent = form.get('intent') ?? '';
    if (intent === 'create') {
      const { token, entry } = await ReaderTokens.create(user.id, { name: form.get('name') ?? '' });
      return answer({ created: { name: entry.name, token } });
    }
    if (intent === 'revoke') {
      const revoked = await ReaderTokens.revoke(user.id, form.get('id') ?? '');
      return answer({ revoked: revoked.name });
    }
    return answer({ error: NO_INTENT, intent }, 400);
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return answer({ error: error.message, intent }, error.status);
  }
}

export default function AccessTokens() {
  const { tokens, max, nameMax, apiUrl } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const nameError = outcome && 'error' in outcome && outcome.intent === 'create';
  return (
    <div className="page narrow tokens">
      <p>
        {/* A document load: the feed's page has its own policy (stories' images). */}
        <Link to="/feed" reloadDocument>
          Back to your stories
        </Link>
      </p>
      <h1>Access tokens</h1>
      <p>
        A personal access token lets your own scripts and apps read your stories through the
        Cluefeed API, as you. Keep it secret like a password; revoke it when you no longer use it. A
        token works for a year.
      </p>
      {outcome && 'created' in outcome && (
        <section className="success-box tokens__created" role="status" aria-live="polite">
          <h2>Your new token: {outcome.created.name}</h2>
          <p>Copy it now. It will not be shown again.</p>
          <p>
            <code className="tokens__secret">{outcome.created.token}</code>
          </p>
          <p>Try it:</p>
          <pre className="tokens__example">
            <code>{`curl -H "Authorization: Bearer ${outcome.created.token}" "${apiUrl}?limit=10"`}</code>
          </pre>
        </section>
      )}
      {outcome && 'revoked' in outcome && (
        <p className="success-box" role="status">
          “{outcome.revoked}” was revoked. It no longer works.
        </p>
      )}
      {outcome && 'error' in outcome && !nameError && (
        <p className="error-box" role="alert">
          {outcome.error}
        </p>
      )}

      <section aria-labelledby="tokens-create">
        <h2 id="tokens-create">Create a token</h2>
        {tokens.length >= max ? (
          <p className="notice">
            You have {max} tokens, the most you can have. Revoke one to create another.
          </p>
        ) : (
          <Form method="post" className="tokens__form">
            <input type="hidden" name="intent" value="create" />
            <label htmlFor="token-name">Token name</label>
            <input
              id="token-name"
              name="name"
              maxLength={nameMax}
              required
              autoComplete="off"
              aria-describedby={nameError ? 'token-name-hint token-name-error' : 'token-name-hint'}
              aria-invalid={nameError || undefined}
            />
            <p id="token-name-hint" className="field__hint">
              What it is for, e.g. “Morning digest script”. At most {nameMax} characters.
            </p>
            {nameError && (
              <p id="token-name-error" className="field__error" role="alert">
                {outcome.error}
              </p>
            )}
            <button type="submit" className="button" disabled={busy}>
              Create token
            </button>
          </Form>
        )}
      </section>

      <section aria-labelledby="tokens-list">
        <h2 id="tokens-list">Your tokens</h2>
        {tokens.length === 0 ? (
          <p>You have no tokens yet.</p>
        ) : (
          <ul className="tokens__list">
            {tokens.map((token) => (
              <li key={token.id}>
                <div>
                  <strong>{token.name}</strong>
                  <p className="tokens__dates">
                    Created {formatTime(token.createdAt)} · Last used{' '}
                    {token.lastUsedAt ? formatTime(token.lastUsedAt) : 'never'} · Expires{' '}
                    {formatTime(token.expiresAt)}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="id" value={token.id} />
                  <button
                    type="submit"
                    className="button button--ghost"
                    aria-label={`Revoke ${token.name}`}
                    disabled={busy}
                  >
                    Revoke
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
