// The CloudFront distribution, created first so its URL (or https://$DOMAIN) is known to every
// function as PUBLIC_URL, the base of absolute links in e-mails.

import { FRONT_DOOR_INJECTION } from './front-door';

/** Optional custom domain, read at deploy time: `DOMAIN=cluefeed.xyz npx sst deploy ...`. */
const domain = process.env.DOMAIN?.trim() || undefined;

export const router = new sst.aws.Router('Router', {
  // A plain name uses a Route 53 hosted zone of that domain for DNS and the ACM certificate.
  ...(domain ? { domain } : {}),
  // Every request passes the front door first: the viewer's real address, cross-site writes refused.
  edge: { viewerRequest: { injection: FRONT_DOOR_INJECTION } },
});
