// The CloudFront distribution, created first so its URL (or https://$DOMAIN) is known to every
// function as PUBLIC_URL, the base of absolute links in e-mails.

/** Optional custom domain, read at deploy time: `DOMAIN=cluefeed.xyz npx sst deploy ...`. */
const domain = process.env.DOMAIN?.trim() || undefined;

export const router = new sst.aws.Router('Router', {
  // A plain name uses a Route 53 hosted zone of that domain for DNS and the ACM certificate.
  ...(domain ? { domain } : {}),
});
