// Field-aware fuzzing of the JSON APIs and the admin forms: RUNS generated bad inputs each, with
// valid credentials where the route needs them, answered with a 4xx and nothing stored.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import * as Tokens from '#core/tokens';
import {
  badEmail,
  badToken,
  formBody,
  fuzz,
  junk,
  junkFields,
  nearMissEmails,
  type FuzzRequest,
} from '#tests/integration/fuzz';
import { actionRoute, routeTable } from '#tests/integration/route-table';
import { seedSweepWorld, type SweepWorld } from '#tests/integration/sweep-world';

const table = await routeTable();
const route = (pattern: string) => actionRoute(table, pattern);

let world: SweepWorld;
beforeAll(async () => {
  world = await seedSweepWorld();
});

const json = (body: fc.Arbitrary<unknown>, headers: () => Record<string, string> = () => ({})) =>
  fc.record({
    method: fc.constant('POST'),
    query: fc.constant(''),
    contentType: fc.constant('application/json'),
    body: body.map((value) => JSON.stringify(value) ?? 'null'),
    headers: fc.constant(null).map(headers),
  }) satisfies fc.Arbitrary<FuzzRequest>;

/** Any JSON value except a plain object. */
const notAnObject = fc
  .jsonValue()
  .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value));
/** Extra fields of any JSON type. */
const extras = fc.dictionary(junk, fc.jsonValue(), { maxKeys: 4 });

describe(
  'JSON APIs answer generated bad input with a 4xx and store nothing',
  { timeout: 60_000 },
  () => {
    it('POST /api/submit-email with a valid token', () =>
      fuzz(
        route('/api/submit-email'),
        world.samples,
        json(
          fc.oneof(
            notAnObject,
            fc
              .tuple(extras, fc.oneof(badEmail, fc.jsonValue()))
              .map(([rest, email]) => ({ ...rest, email })),
            // Tracking fields of the wrong type or size beside a bad address.
            fc
              .tuple(badEmail, fc.jsonValue(), fc.jsonValue())
              .map(([email, utm, vus]) => ({ email, utm, vus })),
          ),
          () => ({ 'X-API-Token': Tokens.sign('waitlist', 600) }),
        ),
        undefined,
        nearMissEmails().map((email) => ({
          method: 'POST',
          query: '',
          contentType: 'application/json',
          body: JSON.stringify({ email }),
          headers: { 'X-API-Token': Tokens.sign('waitlist', 600) },
        })),
      ));

    it('POST /api/submit-email with a good address and a token that is not valid', () =>
      fuzz(
        route('/api/submit-email'),
        world.samples,
        fc.constant(null).chain(() =>
          badToken([Tokens.sign('waitlist', 600), world.tokens.manage]).chain((token) =>
            json(fc.constant({ email: 'fuzz-reader@example.org' }), () => ({
              'X-API-Token': token.replace(/[^\t\x20-\x7e]/g, '?'),
            })),
          ),
        ),
      ));

    it('POST /api/events', () =>
      fuzz(
        route('/api/events'),
        world.samples,
        json(
          fc.oneof(
            notAnObject,
            fc
              .tuple(
                extras,
                junk.filter((name) => name !== 'page_view'),
              )
              .map(([rest, name]) => ({ ...rest, name, path: '/' })),
            // A page view whose fields have the wrong type, shape or size.
            fc
              .record({
                path: fc.oneof(
                  junk.filter((path) => !path.startsWith('/')),
                  fc.constant(`/${'p'.repeat(600)}`),
                  fc.jsonValue().filter((value) => typeof value !== 'string'),
                ),
                referrer: fc.option(fc.oneof(fc.constant('r'.repeat(600)), fc.integer()), {
                  nil: undefined,
                }),
              })
              .map((fields) => ({ name: 'page_view', ...fields })),
            fc
              .record({ utm: fc.jsonValue().filter((value) => typeof value !== 'string') })
              .map((fields) => ({ name: 'page_view', path: '/', ...fields })),
            fc.constantFrom('x', 'spx', 'IP').map((vus) => ({ name: 'page_view', path: '/', vus })),
          ),
        ),
      ));

    it('POST /api/unsubscribe: a valid link without List-Unsubscribe, or any body with a bad link', () =>
      fuzz(
        route('/api/unsubscribe'),
        world.samples,
        fc.oneof(
          fc.record({
            method: fc.constant('POST'),
            query: fc
              .constant(null)
              .map(() => new URLSearchParams({ subscriberHash: world.tokens.manage }).toString()),
            contentType: fc.constantFrom('application/x-www-form-urlencoded', 'text/plain'),
            body: junkFields(['List-Unsubscribe']).map(formBody),
          }),
          fc.record({
            method: fc.constant('POST'),
            query: fc
              .constant(null)
              .chain(() => badToken([world.tokens.manage, world.tokens.confirm]))
              .map((token) => new URLSearchParams({ subscriberHash: token }).toString()),
            contentType: fc.constant('application/x-www-form-urlencoded'),
            body: fc.constant('List-Unsubscribe=One-Click'),
          }),
        ),
      ));

    it('POST /api/token (GET only)', () => fuzz(route('/api/token'), world.samples, json(extras)));
  },
);
