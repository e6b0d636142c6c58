// One e-mail rule for every public form, browser and server alike.
import * as v from 'valibot';

export const EMAIL_MESSAGES = {
  empty: 'Please enter your email address',
  invalid: 'Please enter a valid email address',
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const MAX_EMAIL_LENGTH = 254;

export function isEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value);
}

export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

export const EmailSchema = v.pipe(
  v.string(EMAIL_MESSAGES.empty),
  v.trim(),
  v.nonEmpty(EMAIL_MESSAGES.empty),
  v.check(isEmail, EMAIL_MESSAGES.invalid),
  v.toLowerCase(),
);
