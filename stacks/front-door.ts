// The front door: what CloudFront's viewer-request function does before any request reaches the
// app, written once as CloudFront Functions code (cloudfront-js-2.0). The local server runs the
// same code through `frontDoor`, so both environments refuse and label requests alike.
//  - The viewer's address is the one CloudFront saw, in `x-viewer-address`; whatever a client
//    sent in that header is overwritten, so rate limits cannot be dodged by naming another address.
//  - The host is the `Host` the viewer sent (docs/decisions/0013): it is copied into
//    `x-forwarded-host` over anything a client sent there, as the Router's own code does after
//    this one on AWS, so Remix builds URLs from and compares Origins with that host only.
//  - A write (POST, PUT, PATCH, DELETE) whose Origin is not this host, or is `null` or malformed,
//    is refused with a 403 here. Remix checks the same thing and throws on a mismatch (a bare
//    500), so the rule here is at least as strict as Remix's: the Origin's host, lower-cased and
//    without its scheme's default port, must equal a Host written as browsers write it (lower
//    case, a port without leading zeros), which is exactly when `new URL(origin).host` equals it.
export const FRONT_DOOR_INJECTION = `
  var frontDoorRequest = event.request;
  frontDoorRequest.headers['x-viewer-address'] = { value: event.viewer.ip };
  var frontDoorHost = frontDoorRequest.headers.host && frontDoorRequest.headers.host.value;
  if (frontDoorHost) frontDoorRequest.headers['x-forwarded-host'] = { value: frontDoorHost };
  else delete frontDoorRequest.headers['x-forwarded-host'];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].indexOf(frontDoorRequest.method) !== -1) {
    var frontDoorOrigin = frontDoorRequest.headers.origin && frontDoorRequest.headers.origin.value;
    var frontDoorMatch = frontDoorOrigin ? /^(https?):\\/\\/([^\\/?#\\s]+)$/i.exec(frontDoorOrigin) : null;
    var frontDoorOriginHost = frontDoorMatch
      ? frontDoorMatch[2]
          .toLowerCase()
          .replace(frontDoorMatch[1].toLowerCase() === 'https' ? /:443$/ : /:80$/, '')
      : null;
    if (
      frontDoorOrigin &&
      (!frontDoorOriginHost ||
        !frontDoorHost ||
        !/^([a-z0-9.-]+|\\[[0-9a-f:.]+\\])(:[1-9][0-9]*)?$/.test(frontDoorHost) ||
        frontDoorOriginHost !== frontDoorHost)
    ) {
      return {
        statusCode: 403,
        statusDescription: 'Forbidden',
        headers: {
          'content-type': { value: 'text/plain; charset=utf-8' },
          'cache-control': { value: 'no-store' },
        },
        body: { encoding: 'text', data: 'This request came from another site and was refused.' },
      };
    }
  }
`;

type HeaderValues = Record<string, { value: string }>;
export type FrontDoorRequest = { method: string; headers: HeaderValues };
export type FrontDoorRefusal = {
  statusCode: number;
  headers: HeaderValues;
  body: { encoding: 'text'; data: string };
};

const run = new Function('event', `${FRONT_DOOR_INJECTION}\nreturn undefined;`) as (event: {
  request: FrontDoorRequest;
  viewer: { ip: string };
}) => FrontDoorRefusal | undefined;

/** Runs the front door on a request (headers lower-cased); a refusal, or undefined to go on. */
export function frontDoor(
  request: FrontDoorRequest,
  viewerIp: string,
): FrontDoorRefusal | undefined {
  return run({ request, viewer: { ip: viewerIp } });
}
