// The 'Prompt management' tab: 'Add prompt' (a name and the prompt text, with the
// implementation's placeholders listed beside: a click appends one), and the prompts, newest
// first, each with Duplicate and Remove (asked first, `&removePrompt={id}`).
import { Form, Link, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { AdminModal } from '#web/components/admin-modal';
import { When } from '#web/components/when';
import { useHydrated } from '#web/lib/hydrated';
import { experimentsHref, type ScreenState } from '#web/lib/experiment-paths';
import type { ImplementationView, PromptRow } from '#web/lib/experiment-views';
import { FieldMessage } from './setting-fields';

export function PromptsTab({ state, prompts }: { state: ScreenState; prompts: PromptRow[] }) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <>
      <div className="user-tools">
        <Link
          to={experimentsHref(state, { modal: 'add-prompt' })}
          className="button"
          preventScrollReset
        >
          Add prompt
        </Link>
      </div>
      {prompts.length === 0 ? (
        <p className="notice">No prompts for this implementation yet.</p>
      ) : (
        <ul className="prompt-list">
          {prompts.map((prompt) => (
            <li key={prompt.id} className="prompt-card">
              <h3>{prompt.title}</h3>
              <p className="field__hint">
                Added <When iso={prompt.createdAt} />
              </p>
              <details>
                <summary>Prompt text</summary>
                <pre className="run-prompt">{prompt.prompt}</pre>
              </details>
              <Form method="post" action={experimentsHref(state)} className="admin-form__actions">
                <input type="hidden" name="id" value={prompt.id} />
                <button
                  type="submit"
                  name="intent"
                  value="duplicate-prompt"
                  className="button"
                  disabled={submitting}
                  aria-label={`Duplicate ${prompt.title}`}
                >
                  Duplicate
                </button>
                <Link
                  to={experimentsHref(state, { removePrompt: prompt.id })}
                  className="button button--danger"
                  aria-label={`Remove ${prompt.title}`}
                  preventScrollReset
                >
                  Remove
                </Link>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function RemovePromptDialog({ state, prompt }: { state: ScreenState; prompt: PromptRow }) {
  const back = experimentsHref(state);
  return (
    <AdminModal title="Delete prompt" closeTo={back}>
      <p>You are about to delete the &apos;{prompt.title}&apos; prompt. Are you sure?</p>
      <Form method="post" action={back} className="admin-form__actions">
        <input type="hidden" name="id" value={prompt.id} />
        <button type="submit" name="intent" value="remove-prompt" className="button button--danger">
          Delete
        </button>
        <Link to={back} className="button" preventScrollReset>
          Cancel
        </Link>
      </Form>
    </AdminModal>
  );
}

const MESSAGES = { title: 'Please add a name', prompt: 'Please add a prompt' };

export function AddPromptDialog({
  state,
  implementation,
  typed,
  error,
}: {
  state: ScreenState;
  implementation: ImplementationView;
  typed?: { title: string; prompt: string };
  error?: string;
}) {
  const hydrated = useHydrated();
  const submitting = useNavigation().state === 'submitting';
  const [title, setTitle] = useState(typed?.title ?? '');
  const [text, setText] = useState(typed?.prompt ?? '');
  const [touched, setTouched] = useState({ title: false, prompt: false });
  const message = (field: 'title' | 'prompt', value: string) =>
    touched[field]
      ? value.trim()
        ? undefined
        : MESSAGES[field]
      : error === MESSAGES[field]
        ? error
        : undefined;
  const titleMessage = message('title', title);
  const promptMessage = message('prompt', text);
  const back = experimentsHref(state);
  return (
    <AdminModal title="Add prompt" closeTo={back}>
      <Form
        method="post"
        action={experimentsHref(state, { modal: 'add-prompt' })}
        className="admin-form"
        noValidate
      >
        {error && !Object.values(MESSAGES).includes(error) && (
          <p className="error-box" role="alert">
            {error}
          </p>
        )}
        <label htmlFor="prompt-title">Name</label>
        <input
          id="prompt-title"
          name="title"
          value={title}
          maxLength={200}
          autoComplete="off"
          aria-invalid={titleMessage ? true : undefined}
          aria-describedby={titleMessage ? 'run-title-error' : undefined}
          onChange={(event) => setTitle(event.target.value)}
          onBlur={() => setTouched((seen) => ({ ...seen, title: true }))}
        />
        <FieldMessage name="title" message={titleMessage} />
        <label htmlFor="prompt-text">Prompt</label>
        <textarea
          id="prompt-text"
          name="prompt"
          rows={8}
          value={text}
          aria-invalid={promptMessage ? true : undefined}
          aria-describedby={promptMessage ? 'run-prompt-error' : 'prompt-placeholders'}
          onChange={(event) => setText(event.target.value)}
          onBlur={() => setTouched((seen) => ({ ...seen, prompt: true }))}
        />
        <FieldMessage name="prompt" message={promptMessage} />
        <div id="prompt-placeholders" className="notice prompt-info">
          <p>
            <strong>Placeholders</strong>
            {hydrated ? ' (click one to add it to the prompt)' : ''}
          </p>
          <ul>
            {implementation.info.map((placeholder) => (
              <li key={placeholder.name}>
                {hydrated ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setText((now) => `${now}{${placeholder.name}} `)}
                  >
                    {`{${placeholder.name}}`}
                  </button>
                ) : (
                  <code>{`{${placeholder.name}}`}</code>
                )}{' '}
                {placeholder.description}
                {placeholder.required ? ' (required)' : ''}
              </li>
            ))}
          </ul>
        </div>
        <div className="admin-form__actions">
          <button
            type="submit"
            name="intent"
            value="add-prompt"
            className="button"
            disabled={submitting}
          >
            Add prompt
          </button>
        </div>
      </Form>
    </AdminModal>
  );
}
