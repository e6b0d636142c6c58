// Strict security headers for every document, data and API response.
export function securityHeaders(nonce?: string): Record<string, string> {
  const fromSelf = nonce ? `'self' 'nonce-${nonce}'` : `'self'`;
  return {
    'Content-Security-Policy': [
      `default-src 'self'`,
      `script-src ${fromSelf}`,
      `style-src ${fromSelf}`,
      `img-src 'self' data:`,
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
