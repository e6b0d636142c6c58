// Field-aware fuzzing of the JSON APIs and the funnel's calls: RUNS generated bad inputs each,
// with valid credentials where the route needs them (the waiting-list token, an invitation link's
// token), answered with a 4xx and nothing stored.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import * as Analytics from '#core/analytics';
import * as Tokens from '#core/tokens';
import {
  badEmail,
  badToken,
  formBody,
  fuzz,
  INVALID_UTF8,
  junk,
  junkFields,
  nearMissEmails,
  unreadable,
  type FuzzRequest,
} from '#tests/integration/fuzz';
import { actionRoute, routeTable } from '#tests/integration/route-table';
import {
  invitedReader,
  seedSweepWorld,
  sweepTable,
  type SweepWorld,
} from '#tests/integration/sweep-world';

const table = await routeTable();
const route = (pattern: string) => actionRoute(table, pattern);

sweepTable('apis');

let world: SweepWorld;
beforeAll(async () => {
  world = await seedSweepWorld();
});

/** A fresh token of a page the app served, minted when a sample is made (it lives 4 minutes). */
const servedPage = () => Analytics.pageViewToken('http://localhost/');

const json = (body: fc.Arbitrary<unknown>, headers: () => Record<string, string> = () => ({})) =>
  fc.record({
    method: fc.constant('POST'),
    query: fc.constant(''),
    contentType: fc.constant('application/json'),
    body: body.map((value) => JSON.stringify(value) ?? 'null'),
    headers: fc.constant(null).map(headers),
  }) satisfies fc.Arbitrary<FuzzRequest>;

const MARK = 'sweep-invalid-utf8-here';

/**
 * A JSON body with invalid UTF-8 bytes (the bytes themselves, not an escape) where `body` puts
 * the mark it is given; a server decodes them to U+FFFD.
 */
const invalidUtf8Json = (
  body: (mark: string) => unknown,
  headers: () => Record<string, string> = () => ({}),
) =>
  fc.record({
    method: fc.constant('POST'),
    query: fc.constant(''),
    contentType: fc.constant('application/json'),
    body: fc.constantFrom(...INVALID_UTF8).map((encoded) => {
      const bytes = encoded
        .split('%')
        .slice(1)
        .map((hex) => parseInt(hex, 16));
      const [before, after] = JSON.stringify(body(MARK)).split(MARK);
      const utf8 = new TextEncoder();
      return new Uint8Array([...utf8.encode(before), ...bytes, ...utf8.encode(after)]);
    }),
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
        fc.oneof(
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
          invalidUtf8Json(
            (bad) => ({ email: `reader${bad}@example.org`, utm: 'sweep' }),
            () => ({ 'X-API-Token': Tokens.sign('waitlist', 600) }),
          ),
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
              .map(([rest, name]) => ({ ...rest, name, token: servedPage() })),
            // A page view without its page's token (as beacons were before), or with one that is
            // not valid: junk, altered, or of another purpose.
            fc
              .record({ path: fc.constant('/'), utm: fc.constantFrom('spring-launch', 'x') })
              .map((fields) => ({ name: 'page_view', ...fields })),
            badToken([servedPage(), Tokens.sign('waitlist', 600)]).map((token) => ({
              name: 'page_view',
              token,
            })),
            fc
              .jsonValue()
              .filter((value) => typeof value !== 'string')
              .map((token) => ({ name: 'page_view', token })),
            // A served page's view whose referrer has the wrong type or size.
            fc
              .oneof(fc.constant('r'.repeat(600)), fc.integer())
              .map((referrer) => ({ name: 'page_view', token: servedPage(), referrer })),
            // A served page's view that would be stored but for an unreadable referrer.
            unreadable.map((text) => ({
              name: 'page_view',
              token: servedPage(),
              referrer: `https://example.org/${text}`,
            })),
          ),
        ),
      ));

    it('POST /api/events with invalid UTF-8 in the referrer', () =>
      fuzz(
        route('/api/events'),
        world.samples,
        invalidUtf8Json((bad) => ({
          name: 'page_view',
          token: servedPage(),
          referrer: `https://example.org/${bad}`,
        })),
      ));

    it('POST /api/audience-name-assessment: a clue, starter or pointer with unreadable characters', () =>
      fuzz(
        route('/api/audience-name-assessment'),
        world.samples,
        fc.oneof(
          json(
            fc.oneof(
              unreadable.map((text) => ({ clue: `build ${text} lending protocols` })),
              unreadable.map((text) => ({
                prefix: `I am one of those who ${text}`,
                clue: 'build lending protocols',
              })),
              unreadable.map((text) => ({
                prefix: 'I am one of those who',
                pointer: text,
                clue: 'build lending protocols',
              })),
            ),
          ),
          invalidUtf8Json((bad) => ({ prefix: 'I am one of those who', clue: `build ${bad}` })),
        ),
      ));

    describe('the funnel’s calls (POST /get-started/:call) with a valid invitation link', () => {
      const funnel = route('/get-started/:call');
      const samples = (call: string) => ({ ...world.samples, call });
      // A reader of its own per call, so a signup one let through cannot spend the others' link.
      let readers: Record<'verify' | 'signup' | 'chat', Awaited<ReturnType<typeof invitedReader>>>;
      beforeAll(async () => {
        const [verify, signup, chat] = await Promise.all([
          invitedReader(),
          invitedReader(),
          invitedReader(),
        ]);
        readers = { verify, signup, chat };
      });
      const body = (who: keyof typeof readers, fields: Record<string, unknown>) => ({
        token: readers[who].token,
        ...fields,
      });

      it('check-signup-status: an address that is not one', () =>
        fuzz(
          funnel,
          samples('check-signup-status'),
          fc.oneof(
            json(badEmail.map((email) => body('verify', { email }))),
            invalidUtf8Json((bad) => body('verify', { email: `reader${bad}@example.org` })),
          ),
        ));

      it('signup: a clue with unreadable characters beside good ones', () =>
        fuzz(
          funnel,
          samples('signup'),
          fc.oneof(
            json(
              unreadable.map((text) =>
                body('signup', {
                  password: 'sweep-password-1',
                  confirmPassword: 'sweep-password-1',
                  clues: [`build ${text} lending protocols`, 'run validators'],
                }),
              ),
            ),
            invalidUtf8Json((bad) =>
              body('signup', {
                password: 'sweep-password-1',
                confirmPassword: 'sweep-password-1',
                clues: [`build ${bad} lending protocols`, 'run validators'],
              }),
            ),
          ),
        ));

      it('send-message: a message with unreadable characters', () =>
        fuzz(
          funnel,
          samples('send-message'),
          fc.oneof(
            json(
              unreadable.map((text) =>
                body('chat', { threadId: readers.chat.threadId, message: `I build ${text}` }),
              ),
            ),
            invalidUtf8Json((bad) =>
              body('chat', { threadId: readers.chat.threadId, message: `I build ${bad}` }),
            ),
          ),
        ));
    });

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
