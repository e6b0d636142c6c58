// The signed links a subscriber gets by e-mail; `subscriberHash` carries a token, never a bare id.
import { config } from '#core/config';
import * as Tokens from '#core/tokens';

export const TOKEN_TTL_SECONDS = {
  confirm: 7 * 24 * 3600,
  assemble: 24 * 3600,
  manage: 365 * 24 * 3600,
} as const;

export function manageToken(subscriberId: string): string {
  return Tokens.sign('manage', TOKEN_TTL_SECONDS.manage, subscriberId);
}

export function assembleToken(subscriberId: string): string {
  return Tokens.sign('assemble', TOKEN_TTL_SECONDS.assemble, subscriberId);
}

function url(path: string, token: string): string {
  const link = new URL(path, config().PUBLIC_URL);
  link.searchParams.set('subscriberHash', token);
  return link.toString();
}

export function subscriberLinks(subscriberId: string) {
  const manage = manageToken(subscriberId);
  return {
    confirmUrl: url(
      '/confirm-subscription',
      Tokens.sign('confirm', TOKEN_TTL_SECONDS.confirm, subscriberId),
    ),
    preferencesUrl: url('/subscription', manage),
    unsubscribeUrl: url('/unsubscribe', manage),
    oneClickUnsubscribeUrl: url('/api/unsubscribe', manage),
  };
}

/** RFC 2369 / RFC 8058 headers every e-mail to a subscriber carries. */
export function unsubscribeHeaders(subscriberId: string): Record<string, string> {
  const { oneClickUnsubscribeUrl } = subscriberLinks(subscriberId);
  const mailto = `mailto:${config().UNSUBSCRIBE_MAILTO}?subject=${encodeURIComponent(`unsubscribe ${subscriberId}`)}`;
  return {
    'List-Unsubscribe': `<${oneClickUnsubscribeUrl}>, <${mailto}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
