// The waiting-list form as the server renders it: empty, or with the answer of the no-script
// post (the home page's action). In the browser web/browser/waitlist-form.ts runs it.
import { useId } from 'react';
import { Form, useActionData } from '@remix-run/react';
import { SUCCESS_TEXT, errorText } from '#web/browser/waitlist-form';

/** What the no-JavaScript fallback (the home route's action) answers. */
export type WaitlistActionData = { ok: true } | { ok: false; fieldError?: string };

export function WaitlistForm({ contactEmail }: { contactEmail: string }) {
  const fallback = useActionData<WaitlistActionData>();
  const fieldError = fallback && !fallback.ok ? fallback.fieldError : undefined;
  const banner = fallback?.ok
    ? { kind: 'success', text: SUCCESS_TEXT }
    : fallback && !fallback.fieldError
      ? { kind: 'error', text: errorText(contactEmail) }
      : null;
  const inputId = useId();
  const errorId = `${inputId}-error`;

  return (
    <>
      <Form className="waitlist" noValidate method="post" data-contact-email={contactEmail}>
        <label htmlFor={inputId} className="visually-hidden">
          Email address
        </label>
        <div className={`field ${fieldError ? 'field--invalid' : ''}`}>
          <input
            id={inputId}
            type="email"
            name="email"
            autoComplete="email"
            placeholder="Enter your email"
            aria-invalid={Boolean(fieldError)}
            aria-describedby={fieldError ? errorId : undefined}
          />
        </div>
        <button type="submit" className="button button--large">
          Join our waiting list
        </button>
        {fieldError && (
          <p id={errorId} className="field__error" role="alert">
            {fieldError}
          </p>
        )}
      </Form>
      {banner && (
        <div
          className={`banner banner--${banner.kind}`}
          role={banner.kind === 'error' ? 'alert' : 'status'}
        >
          <p>{banner.text}</p>
          <button type="button" className="banner__close" aria-label="Close">
            ×
          </button>
        </div>
      )}
    </>
  );
}
