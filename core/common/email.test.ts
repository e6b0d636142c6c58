import { describe, expect, it } from 'vitest';
import { isEmail } from './email';

describe('isEmail', () => {
  it.each([
    'reader@example.org',
    'a.b+c@sub.example.co',
    'x@mail-server.example.com',
    'josé@exämple.org',
    "o'brien@example.org",
    `${'a'.repeat(64)}@example.org`,
  ])('accepts %s', (address) => expect(isEmail(address)).toBe(true));

  it.each([
    'reader@example..org',
    'reader@-example.org',
    'reader@example-.org',
    'a..b@example.org',
    '.a@example.org',
    'a.@example.org',
    'a@example.o',
    'a@example',
    'a b@example.org',
    'a@example.org.',
    '@example.org',
    'a@@example.org',
    'a@exa_mple.org',
    `${'a'.repeat(65)}@example.org`,
    `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.org`,
  ])('refuses %s, which a mail server would refuse', (address) =>
    expect(isEmail(address)).toBe(false),
  );

  it.each([
    ['NUL', 'a\u0000b@example.org'],
    ['C0 controls and DEL', 'ctl\u0001\u0007\u007f@example.org'],
    ['a C1 control', 'a\u0085b@example.org'],
    ['a lone surrogate', '\uD800@example.org'],
    ['U+FFFD, which invalid UTF-8 decodes to', '\uFFFD\uFFFD\uFFFD@example.org'],
    ['a bidi override', 'a\u202Eb@example.org'],
    ['a control in the domain', 'a@exa\u0000mple.org'],
  ])('refuses an address holding %s', (_what, address) => expect(isEmail(address)).toBe(false));
});
