// Page views of hydrated pages: one beacon per path the router shows, with the token the root
// loader issued for it (the root revalidates on every path, so each has its own). Public
// documents send theirs from web/browser/public-page.ts, with the token in their last element.
import { useLocation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { sendPageView } from '#web/browser/page-view';

export function PageViews({ token }: { token: string }) {
  const { pathname, search } = useLocation();
  // Read when the path changes, not a reason to send: an action's revalidation brings a new one.
  const latest = useRef(token);
  latest.current = token;
  useEffect(() => {
    sendPageView(latest.current);
  }, [pathname, search]);
  return null;
}
