// 'Got ideas of your own?': several audiences separated by commas, for the editors. The limits are
// always described under the field, and a piece that is too long is named as it is typed.
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { useId, useState } from 'react';
import { SUGGESTION_FORM_ERROR, SUGGESTION_LIMITS, parseSuggestions } from '#core/common';

export type SuggestActionData = { error: string };

const { audiences, minLength, maxLength } = SUGGESTION_LIMITS;
export const SUGGESTION_HINT = `Up to ${audiences} audiences, each ${minLength} to ${maxLength} characters.`;

/** What is wrong with the typed text that the hint alone does not say, if anything. */
export function overLimit(text: string): string | undefined {
  const pieces = text.split(',').map((piece) => piece.trim().replace(/\s+/g, ' '));
  const long = pieces.find((piece) => piece.length > maxLength);
  if (long) {
    return `One audience is ${long.length} characters long; the limit is ${maxLength}.`;
  }
  if (pieces.filter((piece) => piece !== '').length > audiences) {
    return `Please suggest at most ${audiences} audiences at a time.`;
  }
  return undefined;
}

export function SuggestForm() {
  const result = useActionData<SuggestActionData>();
  const navigation = useNavigation();
  const [error, setError] = useState<string | undefined>();
  const [tooMuch, setTooMuch] = useState<string | undefined>();
  const fieldId = useId();
  const hintId = useId();
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
        aria-invalid={Boolean(shown ?? tooMuch)}
        aria-describedby={[hintId, shown && errorId].filter(Boolean).join(' ')}
        onChange={(event) => {
          setError(undefined);
          setTooMuch(overLimit(event.target.value));
        }}
      />
      <p
        id={hintId}
        className={`field__hint${tooMuch ? ' field__hint--over' : ''}`}
        aria-live="polite"
      >
        {tooMuch ?? SUGGESTION_HINT}
      </p>
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
