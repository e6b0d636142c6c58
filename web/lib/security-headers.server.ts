// Strict security headers for every document, data and API response. A page whose route declares
// `handle.externalImages` (the reader's feed: stories' images live on their publishers' sites)
// may load images over https from anywhere; every other page only its own.
export function securityHeaders(
  nonce?: string,
  { externalImages = false }: { externalImages?: boolean } = {},
): Record<string, string> {
  const fromSelf = nonce ? `'self' 'nonce-${nonce}'` : `'self'`;
  return {
    'Content-Security-Policy': [
      `default-src 'self'`,
      `script-src ${fromSelf}`,
      `style-src ${fromSelf}`,
      externalImages ? `img-src 'self' data: https:` : `img-src 'self' data:`,
      `font-src 'self'`,
      `connect-src 'self'`,
      `object-src 'none'`,
      `base-uri 'self'`,
      `form-action 'self'`,
      `frame-ancestors 'none'`,
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
