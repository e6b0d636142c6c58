// The funnel's first and last screens: verification, welcome, review (the password), completed,
// and what a link of a reader who already signed up shows.
import { Link } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { isEmail, PASSWORD_MESSAGES, passwordProblem } from '#core/common';
import { StepHeading } from './step-heading';

const EMAIL_ERROR = 'Please enter a valid email';
/** Spec §9: the funnel's field validation is deferred by 100 ms after typing. */
const VALIDATION_DELAY_MS = 100;

export function VerificationStep(props: {
  focus: boolean;
  onSubmit(email: string): void;
  busy: boolean;
}) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [checked, setChecked] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setChecked(email), VALIDATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [email]);
  const valid = isEmail(email.trim());
  const shownInvalid = touched && !isEmail(checked.trim());
  return (
    <section>
      <StepHeading focus={props.focus}>You are one of the chosen ones</StepHeading>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          setChecked(email);
          if (valid && !props.busy) props.onSubmit(email.trim());
        }}
      >
        <label htmlFor={id}>Enter your email to get started...</label>
        <div className={`field${shownInvalid ? ' field--invalid' : ''}`}>
          <input
            id={id}
            type="email"
            name="email"
            autoComplete="email"
            required
            maxLength={254}
            value={email}
            aria-invalid={shownInvalid}
            aria-describedby={shownInvalid ? `${id}-error` : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setTouched(true);
            }}
          />
        </div>
        {shownInvalid && (
          <p id={`${id}-error`} className="field__error">
            {EMAIL_ERROR}
          </p>
        )}
        <button type="submit" className="button button--large" disabled={props.busy}>
          Get Started
        </button>
      </form>
    </section>
  );
}

/** 'Start' posts the page's form without JavaScript (the route's action); with it, `onStart`. */
export function WelcomeStep(props: { name: string; busy: boolean; onStart(): void }) {
  return (
    <section>
      <StepHeading focus={false}>Welcome on board!</StepHeading>
      <p className="lede">{props.name}</p>
      <form
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          if (!props.busy) props.onStart();
        }}
      >
        <input type="hidden" name="intent" value="start" />
        <button type="submit" className="button button--large" disabled={props.busy}>
          Start
        </button>
      </form>
    </section>
  );
}

export function ReviewStep(props: {
  focus: boolean;
  busy: boolean;
  onSubmit(password: string, confirmPassword: string): void;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [blurred, setBlurred] = useState({ password: false, confirm: false });
  const problem = passwordProblem(password);
  const mismatch = confirm !== password ? PASSWORD_MESSAGES.differ : undefined;
  const invalid = Boolean(problem || mismatch);
  const shownProblem = blurred.password ? problem : undefined;
  const shownMismatch = blurred.confirm ? mismatch : undefined;
  return (
    <section>
      <StepHeading focus={props.focus}>Start your free trial!</StepHeading>
      <p className="lede">Create a password and you are all set...</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setBlurred({ password: true, confirm: true });
          if (!invalid && !props.busy) props.onSubmit(password, confirm);
        }}
      >
        <label htmlFor={`${id}-password`}>Password</label>
        <div className={`field${shownProblem ? ' field--invalid' : ''}`}>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            required
            maxLength={128}
            value={password}
            aria-invalid={Boolean(shownProblem)}
            aria-describedby={`${id}-hint${shownProblem ? ` ${id}-password-error` : ''}`}
            onChange={(event) => setPassword(event.target.value)}
            onBlur={() => setBlurred((was) => ({ ...was, password: true }))}
          />
        </div>
        <p id={`${id}-hint`} className="field__hint">
          {PASSWORD_MESSAGES.hint}
        </p>
        {shownProblem && (
          <p id={`${id}-password-error`} className="field__error">
            {shownProblem}
          </p>
        )}
        <label htmlFor={`${id}-confirm`}>Confirm password</label>
        <div className={`field${shownMismatch ? ' field--invalid' : ''}`}>
          <input
            id={`${id}-confirm`}
            type="password"
            autoComplete="new-password"
            required
            maxLength={128}
            value={confirm}
            aria-invalid={Boolean(shownMismatch)}
            aria-describedby={shownMismatch ? `${id}-confirm-error` : undefined}
            onChange={(event) => setConfirm(event.target.value)}
            onBlur={() => setBlurred((was) => ({ ...was, confirm: true }))}
          />
        </div>
        {shownMismatch && (
          <p id={`${id}-confirm-error`} className="field__error">
            {shownMismatch}
          </p>
        )}
        <button
          type="submit"
          className="button button--large"
          disabled={invalid || props.busy}
          aria-disabled={invalid || props.busy}
        >
          Get Started
        </button>
      </form>
    </section>
  );
}

export function CompletedStep({ focus }: { focus: boolean }) {
  return (
    <section>
      <StepHeading focus={focus}>Thank you :)</StepHeading>
      <p className="lede">You&apos;ll receive an email when your newsfeed is ready</p>
      <SignIn />
    </section>
  );
}

/** An invitation link of a reader who signed up: no steps left, only the way in. */
export function OnboardedStep({ message }: { message: string }) {
  return (
    <section>
      <StepHeading focus={false}>Welcome back!</StepHeading>
      <p className="lede">{message}</p>
      <SignIn />
    </section>
  );
}

function SignIn() {
  return (
    <div className="actions">
      <Link to="/login" className="button button--large">
        Sign in
      </Link>
    </div>
  );
}
