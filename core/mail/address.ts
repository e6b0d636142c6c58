// The one address schema of the whole product (waiting list, subscribers, users, the funnel, the
// admin's forms and test sends): #core/common's rule (which the browser shares) applied to the
// address's one spelling, which needs Node's IDNA mapping and so lives here, server side.
import { domainToASCII, domainToUnicode } from 'node:url';
import * as v from 'valibot';
import { EMAIL_MESSAGES, isEmail } from '#core/common';

/** Characters that would make the URL host parser read only part of a domain (`a.org/x` as `a.org`). */
const URL_DELIMITERS = /[/?#\\%:@[\]]/;

/**
 * An address in its one spelling: the local part NFC and lower-cased, the domain as IDNA maps it
 * (so `bob@EXÄMPLE.org`, `bob@xn--exmple-cua.org` and a full-width domain are one address).
 * Undefined when the address breaks the rule (`isEmail`), so junk has no spelling at all.
 */
export function canonicalEmail(value: string): string | undefined {
  const at = value.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = value.slice(at + 1);
  if (URL_DELIMITERS.test(domain)) return undefined;
  const spelled = `${value.slice(0, at).normalize('NFC').toLowerCase()}@${domainToUnicode(domainToASCII(domain))}`;
  return isEmail(spelled) ? spelled : undefined;
}

/** The key a typed address is looked up by: its spelling, or for no address one nothing has. */
export function emailKey(value: string): string {
  const trimmed = value.trim();
  return canonicalEmail(trimmed) ?? trimmed.toLowerCase();
}

/** An address as every form takes it, with that form's own messages; the output is the spelling. */
export const emailSchema = (messages: { required: string; invalid: string }) =>
  v.pipe(
    v.string(messages.required),
    v.trim(),
    v.nonEmpty(messages.required),
    v.check((email) => canonicalEmail(email) !== undefined, messages.invalid),
    v.transform((email) => canonicalEmail(email)!),
  );

/** With the public forms' messages. */
export const EmailSchema = emailSchema({
  required: EMAIL_MESSAGES.empty,
  invalid: EMAIL_MESSAGES.invalid,
});
