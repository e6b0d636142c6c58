// The Remix app (`remix vite:build` into build/) as a Lambda server behind CloudFront.
// A Router owns the CloudFront distribution so its URL is known before the app's server function
// is created: that URL (or https://$DOMAIN) becomes PUBLIC_URL, used for absolute links in e-mails.
import { jobEnvironment, jobsQueue } from './jobs';
import { appSecret, mailchimpApiKey, smtpUrl } from './secrets';
import { table } from './storage';

/** Optional custom domain, read at deploy time: `DOMAIN=cluefeed.xyz npx sst deploy ...`. */
const domain = process.env.DOMAIN?.trim() || undefined;
/** Optional settings read at deploy time; the app's defaults apply to those left unset. */
const optional = (names: string[]) =>
  Object.fromEntries(
    names.flatMap((name) => (process.env[name]?.trim() ? [[name, process.env[name]!.trim()]] : [])),
  );
const deployEnv = optional([
  'CONTACT_EMAIL',
  'MAIL_FROM',
  'UNSUBSCRIBE_MAILTO',
  'MAILING_LIST',
  'MAILCHIMP_SERVER_PREFIX',
  'MAILCHIMP_LIST_ID',
]);

export const router = new sst.aws.Router('Router', {
  // A plain name uses a Route 53 hosted zone of that domain for DNS and the ACM certificate.
  ...(domain ? { domain } : {}),
});

export const web = new sst.aws.Remix('Web', {
  path: '.',
  buildCommand: 'npm run build',
  buildDirectory: 'build',
  router: { instance: router },
  link: [table, jobsQueue, appSecret, smtpUrl, mailchimpApiKey],
  environment: {
    ...jobEnvironment,
    PUBLIC_URL: router.url,
    ...deployEnv,
    // AWS_REGION is set by Lambda itself; DYNAMODB_ENDPOINT must stay unset on AWS.
  },
  server: {
    runtime: 'nodejs22.x',
    memory: '1024 MB',
    timeout: '20 seconds',
  },
});
