// The spec's password rules and messages (§5), pure so the review step checks the same rules in
// the browser (on blur) as the server does on signup; core/common, like the e-mail rule, is the
// part of core the browser may import.
export const PASSWORD_MIN_LENGTH = 8;
/** argon2 hashes whatever it is given: a bound keeps one request's cost bounded. */
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_MESSAGES = {
  tooShort: 'Password must be at least 8 characters',
  noNumber: 'Password must contain at least 1 number',
  tooLong: `A password has at most ${PASSWORD_MAX_LENGTH} characters`,
  differ: 'Passwords do not match',
  hint: 'Minimum 8 characters, must include at least 1 number',
} as const;

/** What is wrong with a password, length first, then the digit; undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (!/\d/.test(password)) return PASSWORD_MESSAGES.noNumber;
  return undefined;
}
