// 'Got ideas of your own?': several audiences separated by commas, for the editors.
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { useId, useState } from 'react';
import { SUGGESTION_FORM_ERROR, parseSuggestions } from '#core/common';

export type SuggestActionData = { error: string };

export function SuggestForm() {
  const result = useActionData<SuggestActionData>();
  const navigation = useNavigation();
  const [error, setError] = useState<string | undefined>();
  const fieldId = useId();
  const errorId = useId();
  const shown = error ?? result?.error;
  const waiting = navigation.state !== 'idle';
  return (
    <Form
      method="post"
      className="suggest"
      noValidate
      onSubmit={(event) => {
        const text = String(new FormData(event.currentTarget).get('audiences') ?? '');
        const invalid = !parseSuggestions(text);
        setError(invalid ? SUGGESTION_FORM_ERROR : undefined);
        if (invalid) event.preventDefault();
      }}
    >
      <h2>Got ideas of your own?</h2>
      <label htmlFor={fieldId}>Audiences you would like to read about, separated by commas</label>
      <textarea
        id={fieldId}
        name="audiences"
        rows={3}
        placeholder="e.g. run Ethereum validators, design token economies"
        aria-invalid={Boolean(shown)}
        aria-describedby={shown ? errorId : undefined}
        onChange={() => setError(undefined)}
      />
      {shown && (
        <p id={errorId} className="field__error" role="alert">
          {shown}
        </p>
      )}
      <button type="submit" className="button" disabled={waiting}>
        {waiting ? 'Please wait...' : 'Send my ideas'}
      </button>
    </Form>
  );
}
