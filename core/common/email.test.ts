import { describe, expect, it } from 'vitest';
import { isEmail } from './email';

describe('isEmail', () => {
  it.each(['reader@example.org', 'a.b+c@sub.example.co', 'x@mail-server.example.com'])(
    'accepts %s',
    (address) => expect(isEmail(address)).toBe(true),
  );

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
  ])('refuses %s, which a mail server would refuse', (address) =>
    expect(isEmail(address)).toBe(false),
  );
});
