// The front door: what CloudFront's viewer-request function does before any request reaches the
// app, written once as CloudFront Functions code (cloudfront-js-2.0). The local server runs the
// same code through `frontDoor`, so both environments refuse and label requests alike.
//  - The viewer's address is the one CloudFront saw, in `x-viewer-address`; whatever a client
//    sent in that header is overwritten, so rate limits cannot be dodged by naming another address.
//  - A write (POST, PUT, PATCH, DELETE) whose Origin is another site, `null` or malformed is refused
//    with a 403 here: Remix would otherwise throw on it and answer a bare 500.
export const FRONT_DOOR_INJECTION = `
  var frontDoorRequest = event.request;
  frontDoorRequest.headers['x-viewer-address'] = { value: event.viewer.ip };
  if (['POST', 'PUT', 'PATCH', 'DELETE'].indexOf(frontDoorRequest.method) !== -1) {
    var frontDoorOrigin = frontDoorRequest.headers.origin && frontDoorRequest.headers.origin.value;
    var frontDoorHost = frontDoorRequest.headers.host && frontDoorRequest.headers.host.value;
    var frontDoorMatch = frontDoorOrigin ? /^https?:\\/\\/([^\\/?#\\s]+)$/i.exec(frontDoorOrigin) : null;
    if (
      frontDoorOrigin &&
      (!frontDoorMatch || !frontDoorHost || frontDoorMatch[1].toLowerCase() !== frontDoorHost.toLowerCase())
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
