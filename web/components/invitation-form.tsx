// The invitation form: an HTML body (starting from the house invitation, which the admin edits)
// and a landing page URL ('Please add a landing page URL'),
// the three get-started variants as choices that fill the URL, and a preview of the e-mail once
// both are present. The preview is rendered by the server into a sandboxed frame: with script it
// follows the typing, without script the Preview button posts the form into the frame.
import { Form, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { useHydrated } from '#web/lib/hydrated';

export const PREVIEW_PATH = '/admin-panel/user-management/preview';
const PREVIEW_FRAME = 'invitation-preview';
/** Typing pauses this long before the preview follows. */
const PREVIEW_DELAY_MS = 400;

type Variant = { id: string; label: string; url: string };

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
        <fieldset className="admin-form__choices">
          <legend>Landing page</legend>
          {variants.map((variant) => (
            <label key={variant.id} className="checkbox">
              <input
                type="radio"
                name="variant"
                value={variant.id}
                checked={hydrated ? landingUrl === variant.url : undefined}
                onChange={() => setLandingUrl(variant.url)}
              />{' '}
              {variant.label}
            </label>
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
          >
            Send invitation
          </button>
        </div>
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
