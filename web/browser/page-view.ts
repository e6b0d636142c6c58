// First-party page views: one beacon per visited path, with its tracking values.
import { trackingFrom } from '#core/common';

export function sendPageView({ pathname, search }: { pathname: string; search: string }): void {
  const body = JSON.stringify({
    name: 'page_view',
    path: pathname,
    referrer: document.referrer.slice(0, 500) || undefined,
    ...trackingFrom(new URLSearchParams(search)),
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
