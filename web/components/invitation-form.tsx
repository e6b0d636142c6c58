// The invitation form: an HTML body (starting from the house invitation; its HTML is edited only
// on request, the preview shows the message) and a landing page URL ('Please add a landing page
// URL'), the three get-started variants, each explained, as choices that fill the URL, a preview
// of the e-mail once both are present, and why Send is not yet possible while it is not. The preview is rendered by the server into a sandboxed frame: with script it
// follows the typing, without script the Preview button posts the form into the frame.
import { Form, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { useHydrated } from '#web/lib/hydrated';

export const PREVIEW_PATH = '/admin-panel/user-management/preview';
const PREVIEW_FRAME = 'invitation-preview';
/** Typing pauses this long before the preview follows. */
const PREVIEW_DELAY_MS = 400;

type Variant = { id: string; label: string; description: string; url: string };

export function InvitationForm({
  user,
  template,
  variants,
  action,
  serverError,
}: {
  user: { id: string; name: string; email: string };
  /** The house invitation the body starts from; the admin edits it. */
  template: string;
  variants: Variant[];
  action: string;
  serverError?: { error: string; field?: string; typed?: { body: string; landingUrl: string } };
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [body, setBody] = useState(serverError?.typed?.body ?? template);
  const [landingUrl, setLandingUrl] = useState(serverError?.typed?.landingUrl ?? '');
  const [urlTouched, setUrlTouched] = useState(false);
  const previewForm = useRef<HTMLFormElement>(null);
  const ready = body.trim() !== '' && landingUrl.trim() !== '';
  const serverFor = (field: string) =>
    serverError?.field === field ? serverError.error : undefined;
  /** Why Send is disabled, said beside it (with script, where it is disabled). */
  const whyNotYet = !hydrated
    ? undefined
    : !body.trim()
      ? 'Write a message to send the invitation.'
      : !landingUrl.trim()
        ? 'Choose a landing page (or type its URL) to send the invitation.'
        : undefined;
  const urlError =
    urlTouched && !landingUrl.trim() ? 'Please add a landing page URL' : serverFor('landingUrl');

  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => previewForm.current?.requestSubmit(), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, body, landingUrl]);

  return (
    <>
      <p>
        To {user.name} &lt;{user.email}&gt;
      </p>
      <Form method="post" action={action} className="admin-form" noValidate>
        <input type="hidden" name="intent" value="invite" />
        <input type="hidden" name="id" value={user.id} />
        {serverError && !serverError.field && (
          <p className="error-box" role="alert">
            {serverError.error}
          </p>
        )}
        <p>
          The message is the house invitation with their name. Choose a landing page to see it as it
          will be sent.
        </p>
        {/* The HTML is there for who wants it; closed, the preview is what the admin reads. */}
        <details className="invitation-html" open={Boolean(serverFor('body')) || !body.trim()}>
          <summary>Edit the message as HTML</summary>
          <label htmlFor="invitation-body">HTML body</label>
          <textarea
            id="invitation-body"
            name="body"
            rows={8}
            maxLength={5000}
            value={body}
            aria-invalid={serverFor('body') ? true : undefined}
            aria-describedby={serverFor('body') ? 'invitation-body-error' : undefined}
            onChange={(event) => setBody(event.target.value)}
          />
          {serverFor('body') && (
            <p id="invitation-body-error" className="field__error">
              {serverFor('body')}
            </p>
          )}
        </details>
        <fieldset className="landing-choices">
          <legend>Landing page</legend>
          {variants.map((variant) => (
            <div key={variant.id} className="landing-choice">
              <label className="checkbox">
                <input
                  type="radio"
                  name="variant"
                  value={variant.id}
                  checked={hydrated ? landingUrl === variant.url : undefined}
                  aria-describedby={`landing-${variant.id}-hint`}
                  onChange={() => setLandingUrl(variant.url)}
                />{' '}
                {variant.label}
              </label>
              <p id={`landing-${variant.id}-hint`} className="field__hint">
                {variant.description}
              </p>
            </div>
          ))}
        </fieldset>
        <label htmlFor="invitation-landing">Landing page URL</label>
        <input
          id="invitation-landing"
          name="landingUrl"
          type="url"
          value={landingUrl}
          maxLength={2000}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? 'invitation-landing-error' : undefined}
          onChange={(event) => setLandingUrl(event.target.value)}
          onBlur={() => setUrlTouched(true)}
        />
        {urlError && (
          <p id="invitation-landing-error" className="field__error">
            {urlError}
          </p>
        )}
        {(ready || !hydrated) && (
          <section className="invitation-preview" aria-label="Preview">
            <h3>Preview</h3>
            <iframe
              name={PREVIEW_FRAME}
              title="Invitation preview"
              // Nothing in the e-mail runs, and it gets no access to the admin panel.
              sandbox=""
            />
          </section>
        )}
        <div className="admin-form__actions">
          {!hydrated && (
            <button
              type="submit"
              className="button button--ghost"
              formAction={PREVIEW_PATH}
              formTarget={PREVIEW_FRAME}
            >
              Preview
            </button>
          )}
          <button
            type="submit"
            className="button"
            disabled={(hydrated && !ready) || navigation.state === 'submitting'}
            aria-describedby={whyNotYet ? 'invitation-send-hint' : undefined}
          >
            Send invitation
          </button>
        </div>
        {whyNotYet && (
          <p id="invitation-send-hint" className="field__hint">
            {whyNotYet}
          </p>
        )}
      </Form>
      {hydrated && (
        // A plain form (not Remix's): its target is the preview frame, not this page.
        <form ref={previewForm} method="post" action={PREVIEW_PATH} target={PREVIEW_FRAME} hidden>
          <input type="hidden" name="id" value={user.id} />
          <input type="hidden" name="body" value={body} />
          <input type="hidden" name="landingUrl" value={landingUrl} />
        </form>
      )}
    </>
  );
}
