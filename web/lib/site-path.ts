// Paths that a returnUrl may name: only a plain path of this site, checked as it would be visited.

/**
 * `path` when it is a path of this site and nothing else: it starts with one slash, holds no
 * backslash and no encoded slash, backslash or dot, and resolving its dot segments (and escaping
 * what a browser would escape) leaves it as it is; undefined otherwise.
 */
export function sitePath(path: string | null | undefined): string | undefined {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.length > 500) {
    return undefined;
  }
  if (/%2e|%2f|%5c|\\/i.test(path)) return undefined;
  const resolved = new URL(path, 'http://cluefeed.invalid');
  if (
    resolved.origin !== 'http://cluefeed.invalid' ||
    `${resolved.pathname}${resolved.search}` !== path
  ) {
    return undefined;
  }
  return path;
}
