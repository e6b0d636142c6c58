import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { canonicalEmail, EmailSchema, emailSchema } from './address';

describe('the one address rule and spelling', () => {
  it.each([
    ['Reader@Example.ORG', 'reader@example.org'],
    ['josé@EXÄMPLE.org', 'josé@exämple.org'],
    ['jose\u0301@xn--exmple-cua.org', 'josé@exämple.org'],
    ["O'Brien@ｅｘａｍｐｌｅ.org", "o'brien@example.org"],
  ])('spells %s as %s', (typed, spelled) => expect(canonicalEmail(typed)).toBe(spelled));

  it.each([
    ['NUL (email=a%00b@x.co)', 'a\u0000b@x.co'],
    ['controls', 'ctl\u0001\u0007\u007f@example.org'],
    ['invalid UTF-8 (%ED%A0%80@x.co)', '\uFFFD\uFFFD\uFFFD@x.co'],
    ['a lone surrogate', 'a\uDC00@example.org'],
    ['a path after the domain', 'reader@example.org/junk'],
    ['a query after the domain', 'reader@example.org?x=1'],
    ['a fragment after the domain', 'reader@example.org#x'],
    ['a backslash in the domain', 'reader@example.org\\x'],
    ['a port', 'reader@example.org:25'],
    ['percent-encoding in the domain', 'reader@ex%61mple.org'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.org`],
    [
      'over 254 characters',
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.org`,
    ],
  ])('has no spelling for an address with %s', (_what, typed) =>
    expect(canonicalEmail(typed)).toBeUndefined(),
  );

  it('gives every form the same rule with its own messages', () => {
    const users = emailSchema({
      required: 'Please add an email',
      invalid: 'Please add a valid email',
    });
    for (const junk of ['a\u0000b@x.co', '\uFFFD@x.co', 'reader@example.org/x']) {
      expect(v.safeParse(EmailSchema, junk).issues?.[0].message).toBe(
        'Please enter a valid email address',
      );
      expect(v.safeParse(users, junk).issues?.[0].message).toBe('Please add a valid email');
    }
    expect(v.safeParse(users, ' ').issues?.[0].message).toBe('Please add an email');
    expect(v.parse(EmailSchema, ' Bob@EXÄMPLE.org ')).toBe('bob@exämple.org');
  });
});
