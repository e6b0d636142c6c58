// Preferences /subscription: the e-mail box (read-only with Edit, then Save), the editable
// audience cloud, and unsubscribing from everything.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useId, useState } from 'react';
import * as Audiences from '#core/audiences';
import { VisibleError } from '#core/common';
import * as Subscribers from '#core/subscribers';
import { AudienceCloud } from '#web/components/audience-toggle';
import { LinkError } from '#web/components/link-error';
import { Unsubscribed } from '#web/components/unsubscribed';
import { TrackedLink } from '#web/components/tracked-link';
import { privatePageHeaders } from '#web/lib/cache';
import { subscriberAction, toggle } from '#web/lib/subscriber-actions.server';
import { withSubscriber } from '#web/lib/subscriber.server';

export const meta: MetaFunction = () => [{ title: 'Your preferences · Cluefeed' }];
export const headers = privatePageHeaders;

export function loader({ request }: LoaderFunctionArgs) {
  const editing = new URL(request.url).searchParams.get('edit') === 'email';
  return withSubscriber(request, ['manage'], async (subscriber, token) => ({
    token,
    email: subscriber.email,
    status: subscriber.status,
    editing,
    selected: [...(subscriber.audienceIds ?? [])],
    audiences: (await Audiences.list())
      .filter((audience) => audience.state === 'active')
      .map(({ id, title, frequency }) => ({ id, title, frequency })),
  }));
}

export function action({ request }: ActionFunctionArgs) {
  return subscriberAction(request, ['manage'], async (subscriber, form) => {
    switch (form.get('intent')) {
      case 'toggle':
        return toggle(subscriber, form);
      case 'email': {
        // The address change retires the old links: continue with one for the new address.
        const moved = await Subscribers.changeEmail(subscriber, form.get('email') ?? '');
        return redirect(
          `/subscription?${new URLSearchParams({ subscriberHash: Subscribers.manageToken(moved) })}`,
        );
      }
      case 'unsubscribe':
        return Subscribers.unsubscribe(subscriber);
      default:
        throw new VisibleError('input.invalid', 'Unknown action', 400);
    }
  });
}

export default function Preferences() {
  const page = useLoaderData<typeof loader>();
  if (!page.ok) return <LinkError message={page.error} />;
  if (page.status === 'unsubscribed' || page.status === 'cleaned') {
    return <Unsubscribed email={page.email} />;
  }
  return (
    <section className="page narrow">
      <h1>Your preferences</h1>
      {page.status === 'pending' && (
        <p className="notice" role="status">
          We sent a confirmation link to {page.email}. Your newsletter starts (again) once you
          confirm it.
        </p>
      )}
      <EmailBox
        key={page.email}
        email={page.email}
        startEditing={page.editing}
        editHref={`?${new URLSearchParams({ subscriberHash: page.token, edit: 'email' })}`}
      />
      <h2>Your audiences</h2>
      <p>Select an audience to add it to your newsletter; select it again to remove it.</p>
      <AudienceCloud audiences={page.audiences} selected={page.selected} />
      <Form method="post" className="danger-zone">
        <input type="hidden" name="intent" value="unsubscribe" />
        <h2>Unsubscribe</h2>
        <p>Stop every e-mail from Cluefeed.</p>
        <button type="submit" className="button button--ghost">
          Unsubscribe from everything
        </button>
      </Form>
    </section>
  );
}

type EmailBoxProps = { email: string; startEditing: boolean; editHref: string };

/** The Edit link keeps the token, so it also works without JavaScript or in a new tab. */
function EmailBox({ email, startEditing, editHref }: EmailBoxProps) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [editing, setEditing] = useState(startEditing);
  const inputId = useId();
  const errorId = useId();
  const failed = result && !result.ok && result.intent === 'email' ? result.error : undefined;
  const saving = navigation.formData?.get('intent') === 'email';

  return (
    <Form method="post" className="email-box" noValidate>
      <input type="hidden" name="intent" value="email" />
      <label htmlFor={inputId}>Your e-mail address</label>
      <div className="email-box__row">
        <input
          key={`${editing}-${email}`}
          id={inputId}
          type="email"
          name="email"
          autoComplete="email"
          defaultValue={email}
          readOnly={!editing || saving}
          aria-invalid={Boolean(failed)}
          aria-describedby={failed ? errorId : undefined}
        />
        {editing ? (
          <button type="submit" className="button" disabled={saving}>
            Save
          </button>
        ) : (
          <TrackedLink
            to={editHref}
            preventScrollReset
            replace
            className="button button--ghost"
            onClick={(event) => {
              event.preventDefault();
              setEditing(true);
            }}
          >
            Edit
          </TrackedLink>
        )}
      </div>
      {failed && (
        <p id={errorId} className="field__error" role="alert">
          {failed}
        </p>
      )}
    </Form>
  );
}
