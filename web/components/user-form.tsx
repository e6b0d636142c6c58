// The add / edit user form: name and e-mail required ('Please add a name', 'Please add an email',
// shown on blur), the e-mail read-only for an existing user, any status (the form restricts no
// change; each status is explained under it) and the active flag. Submit stays disabled until both are filled; the server checks too.
import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useHydrated } from '#web/lib/hydrated';

const STATUSES = ['Invited', 'Initial', 'Verified', 'Onboarded'] as const;

/** What each status means, in the order a user goes through them. */
const STATUS_MEANINGS: [(typeof STATUSES)[number], string][] = [
  ['Initial', 'added here; no invitation sent yet'],
  ['Invited', 'an invitation was sent; they have not confirmed their e-mail yet'],
  ['Verified', 'confirmed their e-mail from the invitation; get-started not finished'],
  ['Onboarded', 'finished get-started: their clues are saved and their feed is ready'],
];

export type UserFormUser = {
  id: string;
  name: string;
  email: string;
  status: (typeof STATUSES)[number];
  isActive: boolean;
};

export function UserForm({
  user,
  action,
  serverError,
}: {
  user?: UserFormUser;
  action: string;
  serverError?: { error: string; field?: string; typed?: { name: string; email: string } };
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [name, setName] = useState(serverError?.typed?.name ?? user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? serverError?.typed?.email ?? '');
  const [touched, setTouched] = useState({ name: false, email: false });
  const serverFor = (field: string) =>
    serverError?.field === field ? serverError.error : undefined;
  const nameError = touched.name && !name.trim() ? 'Please add a name' : serverFor('name');
  const emailError = touched.email && !email.trim() ? 'Please add an email' : serverFor('email');
  const incomplete = !name.trim() || !email.trim();

  return (
    <Form method="post" action={action} className="admin-form" noValidate>
      <input type="hidden" name="intent" value={user ? 'edit' : 'add'} />
      {user && <input type="hidden" name="id" value={user.id} />}
      {serverError && !serverError.field && (
        <p className="error-box" role="alert">
          {serverError.error}
        </p>
      )}
      <label htmlFor="user-name">Name</label>
      <input
        id="user-name"
        name="name"
        value={name}
        maxLength={100}
        required
        autoComplete="off"
        aria-invalid={nameError ? true : undefined}
        aria-describedby={nameError ? 'user-name-error' : undefined}
        onChange={(event) => setName(event.target.value)}
        onBlur={() => setTouched((seen) => ({ ...seen, name: true }))}
      />
      {nameError && (
        <p id="user-name-error" className="field__error">
          {nameError}
        </p>
      )}
      <label htmlFor="user-email">Email</label>
      <input
        id="user-email"
        name="email"
        type="email"
        value={email}
        readOnly={Boolean(user)}
        required
        autoComplete="off"
        aria-invalid={emailError ? true : undefined}
        aria-describedby={emailError ? 'user-email-error' : user ? 'user-email-hint' : undefined}
        onChange={(event) => setEmail(event.target.value)}
        onBlur={() => setTouched((seen) => ({ ...seen, email: true }))}
      />
      {user && (
        <p id="user-email-hint" className="field__hint">
          The email of an existing user cannot be changed.
        </p>
      )}
      {emailError && (
        <p id="user-email-error" className="field__error">
          {emailError}
        </p>
      )}
      <label htmlFor="user-status">Status</label>
      <select
        id="user-status"
        name="status"
        defaultValue={user?.status ?? 'Initial'}
        aria-describedby="user-status-hint"
      >
        {STATUSES.map((status) => (
          <option key={status}>{status}</option>
        ))}
      </select>
      <dl id="user-status-hint" className="status-meanings">
        {STATUS_MEANINGS.map(([status, meaning]) => (
          <div key={status}>
            <dt>{status}</dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
      <label className="checkbox">
        <input type="checkbox" name="isActive" defaultChecked={user?.isActive ?? true} /> Active
      </label>
      <button
        type="submit"
        className="button"
        disabled={(hydrated && incomplete) || navigation.state === 'submitting'}
      >
        {user ? 'Save changes' : 'Add user'}
      </button>
    </Form>
  );
}
