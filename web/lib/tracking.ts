// Carries utm, raud and vus from the current URL onto the links a visitor follows.
import { useLocation } from '@remix-run/react';
import { trackingFrom, withTracking } from '#core/common';

/** `to` with the current page's tracking values; `raud` names the referring audience. */
export function useTrackedHref(to: string, raud?: string): string {
  const { search } = useLocation();
  const tracking = trackingFrom(new URLSearchParams(search));
  return withTracking(to, raud ? { ...tracking, raud } : tracking);
}
