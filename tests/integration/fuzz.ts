// Property-based fuzzing of route actions: generators of bad input (fast-check) and one runner
// that sends each generated request to a route of the table and asserts a 4xx (never a 2xx, 3xx
// or 5xx) and that no stored item changed across all runs.
import fc from 'fast-check';
import { ulid } from 'ulid';
import { expect } from 'vitest';
import { call, changes, request, storedItems, type Answer } from './route-call';
import { samplePath, type SweptRoute } from './route-table';

/** Generated inputs per form or API; the issue asks for at least 200. */
export const RUNS = 200;

export type FuzzRequest = {
  method: string;
  /** Query string without `?`. */
  query: string;
  contentType?: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
};

/** Strings a hostile or clumsy client sends: random text, edge cases, injections, huge values. */
export const junk: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '%',
      '%E0%A4%A',
      '\u0000',
      '\uD800',
      '__proto__',
      'constructor',
      'toString',
      'null',
      'undefined',
      'true',
      '[]',
      '{}',
      '<script>alert(1)</script>',
      "' OR 1=1 --",
      '../../etc/passwd',
      'javascript:alert(1)',
      'x'.repeat(5000),
      '9'.repeat(400),
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    ),
  },
);

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/**
 * Addresses a person types by mistake; each is also sent as an explicit example. The local part
 * is fresh per call, so a near-miss one test let through cannot mask it in the next ("taken").
 */
export function nearMissEmails(): string[] {
  const reader = `reader-${ulid().toLowerCase()}`;
  return [
    `${reader}@`,
    '@example.org',
    `${reader}@example`,
    `${reader} x@example.org`,
    `${reader}@@example.org`,
    `${reader}@exa mple.org`,
    `${reader}@example..org`,
    `${'a'.repeat(300)}@example.org`,
    `${reader}@example.org\nBcc: victim@example.org`,
  ];
}

/** Anything but a valid address, including near-misses a person types. */
export const badEmail: fc.Arbitrary<string> = fc.oneof(
  junk.filter((value) => !EMAIL_LIKE.test(value.trim())),
  fc.constant(null).chain(() => fc.constantFrom(...nearMissEmails())),
);

/** A url-encoded body from a field map; values may repeat a field. */
export function formBody(fields: [string, string][]): string {
  return new URLSearchParams(fields).toString();
}

/** Random field names and values, never one of `exclude`. */
export const junkFields = (exclude: string[] = []) =>
  fc.array(
    fc.tuple(
      junk.filter((name) => !exclude.includes(name)),
      junk,
    ),
    { maxLength: 6 },
  );

/** A link token that is not one: random text, a valid token with a flipped tail, or the wrong purpose. */
export function badToken(validTokens: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    junk,
    fc.constantFrom(...validTokens).map((token) => `${token.slice(0, -3)}xyz`),
    fc.constantFrom(...validTokens).map((token) => token.split('.').reverse().join('.')),
    fc.constantFrom(...validTokens).map((token) => `${token}.extra`),
  );
}

/** Structurally bad requests: wrong methods, content types and bodies, for any action. */
export const garbageRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom('POST', 'POST', 'PUT', 'PATCH', 'DELETE'),
  query: fc.oneof(
    fc.constant(''),
    junkFields().map(formBody),
    junk.map((value) => new URLSearchParams({ subscriberHash: value }).toString()),
  ),
  contentType: fc.option(
    fc.oneof(
      fc.constantFrom(
        'application/x-www-form-urlencoded',
        'application/json',
        'multipart/form-data; boundary=x',
        'text/plain',
        'application/xml',
        'application/octet-stream',
      ),
      junk.filter((value) => /^[\t\x20-\x7e]*$/.test(value)),
    ),
    { nil: undefined },
  ),
  body: fc.oneof(
    junk,
    junkFields(['email', 'audiences', 'List-Unsubscribe', 'intent']).map(formBody),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.uint8Array({ maxLength: 256 }),
  ),
  headers: fc.option(
    fc.record({ 'X-API-Token': junk.filter((value) => /^[\t\x20-\x7e]*$/.test(value)) }),
    { nil: undefined },
  ),
});

/** Sends one generated request to a route's action. */
export function send(
  route: SweptRoute,
  samples: Record<string, string>,
  input: FuzzRequest,
): Promise<Answer> {
  const { path, params } = samplePath(route.pattern, samples);
  const url = input.query ? `${path}?${input.query}` : path;
  return call(
    route.module.action!,
    request(url, {
      method: input.method,
      body: typeof input.body === 'string' ? input.body : new Blob([new Uint8Array(input.body)]),
      headers: {
        ...(input.contentType && { 'Content-Type': input.contentType }),
        ...input.headers,
      },
    }),
    params,
  );
}

/**
 * Sends RUNS generated requests to the route (its dynamic segments filled from `samples`) and checks each answer with `acceptable` (by default: a 4xx), then
 * that nothing stored changed. `examples` are always sent first (known near-misses). Failures are shrunk by fast-check to the smallest bad request.
 */
export async function fuzz(
  route: SweptRoute,
  samples: Record<string, string>,
  input: fc.Arbitrary<FuzzRequest>,
  acceptable: (answer: Answer) => boolean = (answer) => answer.status >= 400 && answer.status < 500,
  examples: FuzzRequest[] = [],
): Promise<void> {
  const before = await storedItems();
  await fc.assert(
    fc.asyncProperty(input, async (generated) => {
      const answer = await send(route, samples, generated);
      if (!acceptable(answer)) {
        throw new Error(
          `${generated.method} ${route.pattern} answered ${answer.status}${answer.location ? ` -> ${answer.location}` : ''}${answer.error ? `: ${String(answer.error)}` : ''}`,
        );
      }
    }),
    { numRuns: RUNS, examples: examples.map((example) => [example]) },
  );
  expect(changes(before, await storedItems())).toEqual([]);
}
