// One e-mail rule for every public form, browser and server alike.
import * as v from 'valibot';

export const EMAIL_MESSAGES = {
  empty: 'Please enter your email address',
  invalid: 'Please enter a valid email address',
} as const;

// What mail servers accept: a dot-atom local part (no leading, trailing or doubled dot) and a
// host name of non-empty labels that neither start nor end with a hyphen, ending in a 2+ letter TLD.
const LOCAL_PART = /^[^\s@."(),:;<>[\\\]]+(\.[^\s@."(),:;<>[\\\]]+)*$/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TOP_LEVEL_DOMAIN = /^\p{L}{2,63}$/u;
const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;

export function isEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH) return false;
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  return (
    at > 0 &&
    local.length <= MAX_LOCAL_PART_LENGTH &&
    LOCAL_PART.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    TOP_LEVEL_DOMAIN.test(labels.at(-1)!)
  );
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
