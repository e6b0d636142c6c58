// The e-mail field that subscribes a visitor to the audience they are looking at (hero and bar).
// It posts as a document; web/browser/subscribe-form.ts marks it sending.
import { Form, useActionData } from '@remix-run/react';
import { useId } from 'react';

/** A refused subscription: where it was sent from, what was typed and why it was refused. */
export type SubscribeActionData = { placement: 'hero' | 'bar'; email: string; error: string };

export function SubscribeForm({ placement }: { placement: SubscribeActionData['placement'] }) {
  const result = useActionData<SubscribeActionData>();
  const inputId = useId();
  const errorId = useId();
  const refused = result?.placement === placement ? result : undefined;
  const error = refused?.error;
  return (
    <Form method="post" className="subscribe" noValidate>
      <input type="hidden" name="placement" value={placement} />
      <label htmlFor={inputId} className="visually-hidden">
        Email address
      </label>
      <input
        id={inputId}
        className="subscribe__input"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="Enter your email"
        defaultValue={refused?.email}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
      />
      <button type="submit" className="button">
        Subscribe
      </button>
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </Form>
  );
}
