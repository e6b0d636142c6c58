// The signed links a subscriber gets by e-mail; `subscriberHash` carries a token, never a bare id.
// A token names the subscriber and their link version: changing the address bumps the version,
// so every link sent to the old address (confirm, preferences, unsubscribe) stops working.
import { config } from '#core/config';
import * as Tokens from '#core/tokens';

export const TOKEN_TTL_SECONDS = {
  confirm: 7 * 24 * 3600,
  assemble: 24 * 3600,
  manage: 365 * 24 * 3600,
} as const;

export type LinkOwner = { id: string; linkVersion?: number };

/** The token subject: '{id}.{linkVersion}'. */
export function linkSubject({ id, linkVersion }: LinkOwner): string {
  return `${id}.${linkVersion ?? 0}`;
}

export function parseLinkSubject(subject: string): { id: string; linkVersion: number } | undefined {
  const match = /^([0-9A-Z]{26})\.(\d{1,6})$/.exec(subject);
  return match ? { id: match[1]!, linkVersion: Number(match[2]) } : undefined;
}

export function linkToken(purpose: 'confirm' | 'assemble' | 'manage', owner: LinkOwner): string {
  return Tokens.sign(purpose, TOKEN_TTL_SECONDS[purpose], linkSubject(owner));
}

export const manageToken = (owner: LinkOwner) => linkToken('manage', owner);

function url(path: string, token: string): string {
  const link = new URL(path, config().PUBLIC_URL);
  link.searchParams.set('subscriberHash', token);
  return link.toString();
}

export function subscriberLinks(owner: LinkOwner) {
  const manage = manageToken(owner);
  return {
    confirmUrl: url('/confirm-subscription', linkToken('confirm', owner)),
    preferencesUrl: url('/subscription', manage),
    unsubscribeUrl: url('/unsubscribe', manage),
    oneClickUnsubscribeUrl: url('/api/unsubscribe', manage),
  };
}

/** RFC 2369 / RFC 8058 headers every e-mail to a subscriber carries. */
export function unsubscribeHeaders(owner: LinkOwner): Record<string, string> {
  const { oneClickUnsubscribeUrl } = subscriberLinks(owner);
  const mailto = `mailto:${config().UNSUBSCRIBE_MAILTO}?subject=${encodeURIComponent(`unsubscribe ${owner.id}`)}`;
  return {
    'List-Unsubscribe': `<${oneClickUnsubscribeUrl}>, <${mailto}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
