// The password field of a sign-in form (the reader's and the admin's): after a refused attempt it
// is emptied and focused, so the next try starts there.
import { useEffect, useRef } from 'react';

export function SignInPassword({
  refusal,
  maxLength,
}: {
  /** The action's answer to the last attempt; a new one with an error clears the field. */
  refusal: { error?: string } | undefined;
  maxLength?: number;
}) {
  const password = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (refusal?.error && password.current) {
      password.current.value = '';
      password.current.focus();
    }
  }, [refusal]);
  return (
    <>
      <label htmlFor="password">Password</label>
      <input
        ref={password}
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        maxLength={maxLength}
        required
      />
    </>
  );
}
