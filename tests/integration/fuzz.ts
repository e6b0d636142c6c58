// Property-based fuzzing of route actions: generators of bad input (fast-check) and one runner
// that sends each generated request to a route of the table and asserts a 4xx (never a 2xx, 3xx
// or 5xx) and that no stored item changed across all runs. Inputs include what no field accepts
// (NUL, control characters, lone surrogates, U+FFFD, invalid UTF-8, overlong text), so the sweeps
// also check that none of it is ever stored (sweep-world.ts).
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

/**
 * Characters no stored text may hold: NUL, C0 and C1 controls, DEL, lone surrogates and U+FFFD
 * (what invalid UTF-8 decodes to). A line break or a tab is only fine in a multi-line field.
 */
export const UNREADABLE_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\u0008',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\uD800',
  '\uDFFF',
  '\uFFFD',
] as const;

/** Invalid UTF-8 as a client percent-encodes it: surrogates, overlong forms, stray or cut bytes. */
export const INVALID_UTF8 = [
  '%ED%A0%80',
  '%ED%BF%BF',
  '%C0%AF',
  '%E0%80%80',
  '%F8%88%80%80%80',
  '%FF',
  '%80',
  '%C3',
] as const;

/**
 * Ordinary text with unreadable characters in it (at least one, anywhere). They stand apart, so
 * two halves never meet as a whole character (\uD800\uDFFF is U+103FF, which is fine).
 */
export const unreadable: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.array(fc.constantFrom(...UNREADABLE_CHARACTERS), { minLength: 1, maxLength: 3 }),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, characters, after]) => `${before}${characters.join('x')}${after}`);

/** Strings a hostile or clumsy client sends: random text, edge cases, injections, huge values. */
export const junk: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: unreadable },
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
      'ctl\u0001\u0007\u007f',
      '\uFFFD\uFFFD\uFFFD',
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
    ...junkEmails(reader),
  ];
}

/**
 * Addresses that look valid but hold what no address may: NUL, controls, invalid UTF-8 (as it
 * decodes), a lone surrogate, a bidi override, or a URL's path after the domain.
 */
function junkEmails(reader: string): string[] {
  return [
    `${reader}\u0000b@x.co`,
    `ctl\u0001\u0007\u007f${reader}@example.org`,
    `${reader}\uFFFD\uFFFD\uFFFD@x.co`,
    `${reader}\uD800@example.org`,
    `${reader}\u202E@example.org`,
    `${reader}@exa\u0000mple.org`,
    `${reader}@example.org/junk`,
  ];
}

/** A fresh address with unreadable characters somewhere in it. */
const unreadableEmail: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...UNREADABLE_CHARACTERS),
    fc.constantFrom('start', 'local', 'before-at', 'domain'),
  )
  .map(([character, where]) => {
    const reader = `reader-${ulid().toLowerCase()}`;
    if (where === 'start') return `${character}${reader}@example.org`;
    if (where === 'local') return `${reader.slice(0, 8)}${character}${reader.slice(8)}@example.org`;
    if (where === 'before-at') return `${reader}${character}@example.org`;
    return `${reader}@exa${character}mple.org`;
  });

/** Anything but a valid address, including near-misses a person types and junk that looks valid. */
export const badEmail: fc.Arbitrary<string> = fc.oneof(
  junk.filter((value) => !EMAIL_LIKE.test(value.trim())),
  unreadableEmail,
  fc.constant(null).chain(() => fc.constantFrom(...nearMissEmails())),
);

/**
 * A fresh address as a form body's raw value with invalid UTF-8 in it (`%ED%A0%80%40x.co`), which
 * a URL-encoded body decodes to U+FFFD: sent as is, never re-encoded.
 */
export const invalidUtf8Email: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...INVALID_UTF8), fc.boolean())
  .map(([bytes, inLocalPart]) => {
    const reader = `reader-${ulid().toLowerCase()}`;
    return inLocalPart ? `${reader}${bytes}%40example.org` : `${reader}%40exa${bytes}mple.org`;
  });

/** Text with invalid UTF-8 in it, as a raw (already percent-encoded) form value. */
export const invalidUtf8Text: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...INVALID_UTF8), fc.constantFrom('zk%20rollups', 'defi', ''))
  .map(([bytes, text]) => `${text}${bytes}${text}`);

/** A url-encoded body from a field map; values may repeat a field. */
export function formBody(fields: [string, string][]): string {
  return new URLSearchParams(fields).toString();
}

/** A url-encoded body whose values are already percent-encoded (invalid UTF-8 stays invalid). */
export function rawFormBody(fields: [string, string][]): string {
  return fields.map(([name, value]) => `${encodeURIComponent(name)}=${value}`).join('&');
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
    invalidUtf8Text.map((value) => `subscriberHash=${value}&slug=${value}`),
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
    // The fields forms store, holding invalid UTF-8 or unreadable characters.
    fc
      .array(
        fc.tuple(
          fc.constantFrom('email', 'audiences', 'name', 'message', 'clue', 'path'),
          fc.oneof(invalidUtf8Text, invalidUtf8Email),
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map(rawFormBody),
    fc
      .record({ email: unreadableEmail, audiences: unreadable, path: unreadable })
      .map((fields) => JSON.stringify(fields)),
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
