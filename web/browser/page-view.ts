// First-party page views: one beacon per page served, with the token the server rendered into it
// (the proof it was served, bound to its path and tracking values).
export function sendPageView(token: string): void {
  const body = JSON.stringify({
    name: 'page_view',
    token,
    referrer: document.referrer.slice(0, 500) || undefined,
  });
  const blob = new Blob([body], { type: 'application/json' });
  if (!navigator.sendBeacon?.('/api/events', blob)) {
    // A page view is best effort: one lost to a navigation or a dropped connection is no error.
    fetch('/api/events', {
      method: 'POST',
      body,
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
    }).catch(() => undefined);
  }
}

/**
 * The attribute of the hidden element, at the end of a public document's body, that carries its
 * token (an element the body may hold, unlike a named meta).
 */
export const PAGE_VIEW_ATTRIBUTE = 'data-page-view-token';
