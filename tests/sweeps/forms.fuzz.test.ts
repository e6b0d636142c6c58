// Field-aware fuzzing of the subscriber and waiting-list forms: each gets RUNS generated bad inputs
// that carry valid credentials where the form needs them (so validation, not the token check, is
// what answers), and must answer a 4xx and store nothing.
import fc from 'fast-check';
import { ulid } from 'ulid';
import { beforeAll, describe, it } from 'vitest';
import * as ContentCards from '#core/content-cards';
import * as Subscribers from '#core/subscribers';
import {
  badEmail,
  badToken,
  formBody,
  fuzz,
  invalidUtf8Email,
  invalidUtf8Text,
  junk,
  junkFields,
  nearMissEmails,
  rawFormBody,
  unreadable,
  type FuzzRequest,
} from '#tests/integration/fuzz';
import { actionRoute, routeTable } from '#tests/integration/route-table';
import { seedSweepWorld, sweepTable, type SweepWorld } from '#tests/integration/sweep-world';

const table = await routeTable();
const route = (pattern: string) => actionRoute(table, pattern);

sweepTable('forms');

let world: SweepWorld;
beforeAll(async () => {
  world = await seedSweepWorld();
});

const FORM = 'application/x-www-form-urlencoded';
const tracking = fc
  .array(fc.tuple(fc.constantFrom('utm', 'raud', 'vus', 'slug'), junk), { maxLength: 3 })
  .map(formBody);

/** A form POST with the given fields and query. */
function post(fields: fc.Arbitrary<[string, string][]>, query: fc.Arbitrary<string>) {
  return fc.record({
    method: fc.constant('POST'),
    query,
    contentType: fc.constant(FORM),
    body: fields.map(formBody),
  }) satisfies fc.Arbitrary<FuzzRequest>;
}

const withToken = (token: () => string) =>
  tracking.map((query) => `${query}&subscriberHash=${encodeURIComponent(token())}`);
const withBadToken = (tokens: () => string[]) =>
  fc
    .constant(null)
    .chain(() => badToken(tokens()))
    .map((token) => new URLSearchParams({ subscriberHash: token }).toString());

/**
 * Each near-miss address as an explicit first example, beside `fields`, and one with invalid
 * UTF-8 as a client percent-encodes it (`%ED%A0%80%40x.co`).
 */
function nearMisses(query: string, fields: [string, string][] = []): FuzzRequest[] {
  return [
    ...nearMissEmails().map((email) => formBody([...fields, ['email', email]])),
    rawFormBody([...fields, ['email', `%ED%A0%80reader-${Date.now()}%40x.co`]]),
  ].map((body) => ({ method: 'POST', query, contentType: FORM, body }));
}

/** A form POST whose address field is raw invalid UTF-8, beside other (encoded) `fields`. */
function invalidUtf8Post(query: fc.Arbitrary<string>, fields: [string, string][] = []) {
  return fc.record({
    method: fc.constant('POST'),
    query,
    contentType: fc.constant(FORM),
    body: invalidUtf8Email.map((email) =>
      [formBody(fields), rawFormBody([['email', email]])].filter(Boolean).join('&'),
    ),
  }) satisfies fc.Arbitrary<FuzzRequest>;
}

/** Audience ids a toggle must refuse: unknown, malformed, or an upcoming (not active) audience. */
const badAudienceId = () =>
  fc.oneof(junk, fc.constant(world.upcoming.id), fc.constant('01ARZ3NDEKTSV4RRFFQ69G5FAV'));

describe(
  'forms answer generated bad input with a 4xx and store nothing',
  { timeout: 60_000 },
  () => {
    it('waiting list (POST /)', () =>
      fuzz(
        route('/'),
        world.samples,
        fc.oneof(
          post(
            fc
              .tuple(badEmail, junkFields(['email']))
              .map(([email, rest]) => [['email', email], ...rest]),
            tracking,
          ),
          invalidUtf8Post(tracking),
        ),
        undefined,
        nearMisses(''),
      ));

    // The audience page, and a post and a content card of the audience, which offer its newsletter.
    it.each([
      ['/a/:slug', () => world.samples],
      ['/p/:slug', () => ({ slug: world.post.slug })],
      ['/cc/:slug', () => ({ slug: ContentCards.pathSlug(world.card) })],
    ])('subscribe (POST %s)', (pattern, samples) =>
      fuzz(
        route(pattern),
        samples(),
        fc.oneof(
          post(
            fc
              .tuple(badEmail, fc.option(junk, { nil: undefined }))
              .map(([email, placement]): [string, string][] => [
                ['email', email],
                ...(placement === undefined ? [] : [['placement', placement] as [string, string]]),
              ]),
            tracking,
          ),
          invalidUtf8Post(tracking),
        ),
        undefined,
        nearMisses(''),
      ),
    );

    it('preferences (POST /subscription)', () =>
      fuzz(
        route('/subscription'),
        world.samples,
        fc.oneof(
          post(
            fc.oneof(
              junk
                .filter((intent) => !['toggle', 'email', 'unsubscribe'].includes(intent))
                .map((intent): [string, string][] => [['intent', intent]]),
              fc
                .tuple(badAudienceId(), junk)
                .map(([audienceId, subscribed]): [string, string][] => [
                  ['intent', 'toggle'],
                  ['audienceId', audienceId],
                  ['subscribed', subscribed],
                ]),
              badEmail.map((email): [string, string][] => [
                ['intent', 'email'],
                ['email', email],
              ]),
            ),
            withToken(() => world.tokens.manage),
          ),
          invalidUtf8Post(
            withToken(() => world.tokens.manage),
            [['intent', 'email']],
          ),
        ),
        undefined,
        nearMisses(`subscriberHash=${world.tokens.manage}`, [['intent', 'email']]),
      ));

    it('assemble your newsletter (POST /assemble-your-newsletter)', () =>
      fuzz(
        route('/assemble-your-newsletter'),
        world.samples,
        post(
          fc
            .tuple(badAudienceId(), fc.constantFrom('true', 'false'))
            .map(([id, subscribed]): [string, string][] => [
              ['intent', 'toggle'],
              ['audienceId', id],
              ['subscribed', subscribed],
            ]),
          withToken(() => world.tokens.assemble),
        ),
      ));

    it('upcoming niches (POST /upcoming-niches)', () =>
      fuzz(
        route('/upcoming-niches'),
        world.samples,
        post(
          fc
            .oneof(
              fc.constant([] as string[]),
              fc.array(junk, { minLength: 1, maxLength: 5 }),
              // An active audience is not a niche; a valid niche beside an unknown one is refused too.
              fc.constant([world.audience.id]),
              junk.map((id) => [world.upcoming.id, id]),
              fc.constant(Array.from({ length: 51 }, (_, i) => `01ARZ3NDEKTSV4RRFFQ69G5F${i}`)),
            )
            .map((ids) => ids.map((id): [string, string] => ['niche', id])),
          withToken(() => world.tokens.manage),
        ),
        undefined,
        // The same unknown niche twice (a replayed or hand-made form).
        [
          {
            method: 'POST',
            query: `subscriberHash=${world.tokens.manage}`,
            contentType: FORM,
            body: 'niche=01ARZ3NDEKTSV4RRFFQ69G5FAV&niche=01ARZ3NDEKTSV4RRFFQ69G5FAV',
          },
        ],
      ));

    it('unsubscribe page (POST /unsubscribe) with a link that is not valid', () =>
      fuzz(
        route('/unsubscribe'),
        world.samples,
        post(
          junkFields(),
          withBadToken(() => [world.tokens.manage, world.tokens.confirm]),
        ),
      ));

    it('confirmation (POST /confirm-subscription) with a link that is not valid', () =>
      fuzz(
        route('/confirm-subscription'),
        world.samples,
        post(
          junkFields(),
          fc.oneof(
            withBadToken(() => [world.tokens.confirm]),
            // Links of another purpose confirm nothing.
            fc
              .constant(null)
              .map(() => new URLSearchParams({ subscriberHash: world.tokens.manage }).toString()),
            fc
              .constant(null)
              .map(() => new URLSearchParams({ subscriberHash: world.tokens.assemble }).toString()),
          ),
        ),
      ));

    /**
     * Texts the suggestion rule refuses: empty pieces, too short, too long, too many, and pieces
     * that would pass but for an unreadable character.
     */
    const badSuggestions = fc.oneof(
      unreadable.map((text) => `zk rollups ${text}, defi lending`),
      fc.constantFrom('zk\u0000 rollups', 'defi \uFFFD lending', 'nft\u0007 collectors, daos'),
      fc.constantFrom(
        '',
        ' ',
        ',',
        'ab',
        'zk rollups,, defi',
        'a,b',
        'x'.repeat(121),
        'x'.repeat(2001),
      ),
      fc
        .array(fc.constant('zk rollups'), { minLength: 11, maxLength: 15 })
        .map((pieces) => pieces.join(',')),
      junk.map((text) => `${text},ab`),
    );

    // The suggestion pages' own subscriber: an address change another form let through would
    // retire the shared link, and these properties would then test only the link check.
    let suggester = '';
    beforeAll(async () => {
      const { subscriber } = await Subscribers.subscribe({
        email: `suggester-${ulid().toLowerCase()}@example.org`,
        audienceId: world.audience.id,
      });
      suggester = Subscribers.manageToken(subscriber);
    });

    /** Suggestions that pass but for invalid UTF-8, as raw form bodies. */
    const invalidUtf8Suggestions = (query: fc.Arbitrary<string>) =>
      fc.record({
        method: fc.constant('POST'),
        query,
        contentType: fc.constant(FORM),
        body: invalidUtf8Text.map((text) =>
          rawFormBody([['audiences', `zk%20rollups%20${text}%2C%20defi%20lending`]]),
        ),
      }) satisfies fc.Arbitrary<FuzzRequest>;

    for (const pattern of [
      '/we-should-have-known',
      '/thank-you-for-voting',
      '/subscribed-to-newsletter-suggestions',
    ]) {
      it(`suggestions (POST ${pattern}): bad text with a valid link, any text with a bad link`, () =>
        fuzz(
          route(pattern),
          world.samples,
          fc.oneof(
            post(
              badSuggestions.map((text): [string, string][] => [['audiences', text]]),
              withToken(() => suggester),
            ),
            invalidUtf8Suggestions(withToken(() => suggester)),
            post(
              junk.map((text): [string, string][] => [['audiences', text]]),
              withBadToken(() => [suggester]),
            ),
          ),
        ));
    }

    it('suggestions before subscribing (POST /subscribed-to-newsletter/:slug?)', () =>
      fuzz(
        route('/subscribed-to-newsletter/:slug?'),
        world.samples,
        fc.oneof(
          post(
            badSuggestions.map((text): [string, string][] => [['audiences', text]]),
            tracking,
          ),
          invalidUtf8Suggestions(tracking),
        ),
      ));
  },
);
