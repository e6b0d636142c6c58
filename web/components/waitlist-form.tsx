// The waiting-list form: token, then submit; the spec's states (valid check, spinner,
// 'Submitting...', success banner for 8 s, error banner until closed).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Form, useActionData } from '@remix-run/react';
import { EMAIL_MESSAGES, isEmail, trackingFrom } from '#core/common';

export const SUCCESS_BANNER_MS = 8_000;

type Banner = { kind: 'success' | 'error'; text: string } | null;

/** What the no-JavaScript fallback (the home route's action) answers. */
export type WaitlistActionData = { ok: true } | { ok: false; fieldError?: string };

const successText = "You're on the list! We'll email you as soon as your spot opens.";
const errorText = (contactEmail: string) =>
  `An error occurred. Please try again or send us an email at ${contactEmail}`;

export function WaitlistForm({ contactEmail }: { contactEmail: string }) {
  const fallback = useActionData<WaitlistActionData>();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(
    fallback && !fallback.ok ? (fallback.fieldError ?? null) : null,
  );
  const [submitting, setSubmitting] = useState(false);
  const [banner, setBanner] = useState<Banner>(
    fallback?.ok
      ? { kind: 'success', text: successText }
      : fallback && !fallback.fieldError
        ? { kind: 'error', text: errorText(contactEmail) }
        : null,
  );
  const inputId = useId();
  const errorId = useId();
  // What was typed, spaces included: the spec allows none, so a space shows as invalid.
  const value = email;
  const valid = isEmail(value);
  // A non-empty invalid address says why once the visitor leaves the field, not only on submit.
  const message = fieldError ?? (touched && value !== '' && !valid ? EMAIL_MESSAGES.invalid : null);

  useEffect(() => {
    if (banner?.kind !== 'success') return;
    const timer = setTimeout(() => setBanner(null), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (value.trim() === '') return setFieldError(EMAIL_MESSAGES.empty);
    if (!valid) return setFieldError(EMAIL_MESSAGES.invalid);
    setFieldError(null);
    setSubmitting(true);
    setBanner(null);
    try {
      const tokenResponse = await fetch('/api/token');
      if (!tokenResponse.ok) throw new Error(`token ${tokenResponse.status}`);
      const { token } = (await tokenResponse.json()) as { token: string };
      const response = await fetch('/api/submit-email', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Token': token },
        body: JSON.stringify({
          email: value,
          ...trackingFrom(new URLSearchParams(window.location.search)),
        }),
      });
      if (!response.ok) throw new Error(`submit ${response.status}`);
      setEmail('');
      setTouched(false);
      setBanner({ kind: 'success', text: successText });
    } catch {
      setBanner({ kind: 'error', text: errorText(contactEmail) });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <Form className="waitlist" noValidate onSubmit={submit} method="post">
        <label htmlFor={inputId} className="visually-hidden">
          Email address
        </label>
        <div className={`field ${message ? 'field--invalid' : ''}`}>
          <input
            id={inputId}
            type="email"
            name="email"
            autoComplete="email"
            placeholder="Enter your email"
            value={email}
            readOnly={submitting}
            aria-invalid={Boolean(message)}
            aria-describedby={message ? errorId : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setFieldError(null);
            }}
            onBlur={() => setTouched(true)}
          />
          {submitting ? (
            <span className="spinner" role="status" aria-label="Sending" />
          ) : (
            valid && (
              <svg
                className="field__check"
                role="img"
                aria-label="Valid email"
                width="20"
                height="20"
                viewBox="0 0 20 20"
              >
                <path
                  d="M4 10.5l4 4 8-9"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                  strokeLinecap="round"
                />
              </svg>
            )
          )}
        </div>
        <button type="submit" className="button button--large" disabled={submitting}>
          {submitting ? 'Submitting...' : 'Join our waiting list'}
        </button>
        {message && (
          <p id={errorId} className="field__error" role="alert">
            {message}
          </p>
        )}
      </Form>
      {banner && (
        <div
          className={`banner banner--${banner.kind}`}
          role={banner.kind === 'error' ? 'alert' : 'status'}
        >
          <p>{banner.text}</p>
          <button
            type="button"
            className="banner__close"
            aria-label="Close"
            onClick={() => setBanner(null)}
          >
            ×
          </button>
        </div>
      )}
    </>
  );
}
