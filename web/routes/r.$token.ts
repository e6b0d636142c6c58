// GET /r/{token}: a story link from a newsletter issue. Counts the click on the issue and sends the
// reader on to the story the token was signed for; the target comes only from the token. A HEAD
// (link checkers) redirects without counting. Mail scanners that follow links with GET are counted
// as clicks: there is no telling them from a reader (docs/operations.md, 'Newsletter clicks').
import type { LoaderFunctionArgs } from '@remix-run/node';
import { isVisibleError } from '#core/common';
import * as Newsletter from '#core/newsletter';
import { clientIp } from '#web/lib/api.server';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';
import { securityHeaders } from '#web/lib/security-headers.server';

/** Per reader (the token names them), never stored by a CDN; the story never learns our URL. */
const REDIRECT_HEADERS = {
  'Cache-Control': 'private, no-store',
  'Referrer-Policy': 'no-referrer',
};

export const loader = storingLogs(async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const { url } = await Newsletter.followClick(params.token, {
      ip: clientIp(request),
      peek: request.method === 'HEAD',
    });
    return new Response(null, {
      status: 302,
      headers: { ...securityHeaders(), ...REDIRECT_HEADERS, Location: url },
    });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return notValid(error.status);
  }
});

/** A small page for a link that is not ours or was cut short, with a way on to the site. */
function notValid(status: number): Response {
  const message = Newsletter.INVALID_CLICK_LINK_MESSAGE;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${message} · Cluefeed</title>
</head>
<body>
<main>
<h1>${message}</h1>
<p>It may have been cut short when it was copied. Open the link from the newsletter e-mail again, or go to <a href="/">Cluefeed</a>.</p>
</main>
</body>
</html>
`;
  return new Response(page, {
    status,
    headers: {
      ...securityHeaders(),
      ...REDIRECT_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
    },
  });
}

export const action = readOnly();
