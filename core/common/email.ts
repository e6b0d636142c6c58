// The one e-mail address rule, browser and server alike; the server gives every address its one
// spelling (#core/mail's canonicalEmail, which needs Node's IDNA) and checks it by this rule.

export const EMAIL_MESSAGES = {
  empty: 'Please enter your email address',
  invalid: 'Please enter a valid email address',
} as const;

// What mail servers accept: a dot-atom local part (no leading, trailing or doubled dot), which may
// be non-ASCII (josé, o'brien) but holds no control or format character (NUL, DEL, C1, bidi
// overrides), no half of a character (lone surrogate) and no U+FFFD (what invalid UTF-8 decodes
// to); and a host name of non-empty labels that neither start nor end with a hyphen, ending in a
// 2+ letter TLD. At most 254 characters, 64 before the @ (RFC 5321).
const LOCAL_PART =
  /^[^\s@."(),:;<>[\\\]\p{Cc}\p{Cf}\p{Cs}\uFFFD]+(\.[^\s@."(),:;<>[\\\]\p{Cc}\p{Cf}\p{Cs}\uFFFD]+)*$/u;
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
