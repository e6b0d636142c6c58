// Page views of hydrated pages: one beacon per path the router shows (public documents send
// theirs from web/browser/public-page.ts).
import { useLocation } from '@remix-run/react';
import { useEffect } from 'react';
import { sendPageView } from '#web/browser/page-view';

export function PageViews() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    sendPageView({ pathname, search });
  }, [pathname, search]);
  return null;
}
