// A Link that keeps the visitor's tracking parameters (utm, raud, vus).
import { Link, type LinkProps } from '@remix-run/react';
import { useTrackedHref } from '#web/lib/tracking';

export function TrackedLink({
  to,
  raud,
  ...props
}: Omit<LinkProps, 'to'> & { to: string; raud?: string }) {
  return <Link to={useTrackedHref(to, raud)} {...props} />;
}
