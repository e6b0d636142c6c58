// The e-mail field that subscribes a visitor to the audience they are looking at (hero and bar).
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { useId } from 'react';

export type SubscribeActionData = { placement: 'hero' | 'bar'; error: string };

export function SubscribeForm({ placement }: { placement: SubscribeActionData['placement'] }) {
  const result = useActionData<SubscribeActionData>();
  const navigation = useNavigation();
  const inputId = useId();
  const errorId = useId();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('placement') === placement;
  const error = result?.placement === placement ? result.error : undefined;
  return (
    <Form method="post" className="subscribe" noValidate preventScrollReset>
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
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
        readOnly={busy}
      />
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Subscribing...' : 'Subscribe'}
      </button>
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </Form>
  );
}
