// A Link that keeps the visitor's tracking parameters (utm, raud, vus). A link to a public
// document loads it whole (ADR 35).
import { Link, type LinkProps } from '@remix-run/react';
import { linksToPublicDocument } from '#web/lib/public-document';
import { useTrackedHref } from '#web/lib/tracking';

export function TrackedLink({
  to,
  raud,
  ...props
}: Omit<LinkProps, 'to'> & { to: string; raud?: string }) {
  return (
    <Link to={useTrackedHref(to, raud)} reloadDocument={linksToPublicDocument(to)} {...props} />
  );
}
