import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { freeText, TEXT_MESSAGES } from './text';

const issue = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? undefined : result.issues[0].message;
};

describe('freeText', () => {
  const oneLine = freeText({ max: 10, tooLong: 'At most 10' });

  it('stores NFC, trimmed: one word has one spelling', () => {
    expect(v.parse(oneLine, '  cafe\u0301 ')).toBe('café');
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['C0 controls and DEL', 'ctl\u0001\u0007\u007f'],
    ['a C1 control', 'a\u0085b'],
    ['a line break in a one-line field', 'a\nb'],
    ['a lone surrogate', 'a\uD800b'],
    ['U+FFFD, which invalid UTF-8 decodes to', 'a\uFFFDb'],
  ])('refuses %s with a clear message', (_what, text) =>
    expect(issue(oneLine, text)).toBe(TEXT_MESSAGES.unreadable),
  );

  it('keeps characters people type, emoji and accents included', () => {
    const text = freeText({ max: 100, tooLong: 'At most 100' });
    expect(v.parse(text, 'josé 🦊👨‍👩‍👧')).toBe('josé 🦊👨‍👩‍👧');
  });

  it('refuses a text over its limit with its own message', () => {
    expect(issue(oneLine, 'x'.repeat(11))).toBe('At most 10');
  });

  it('keeps a multi-line field’s line breaks and tabs, as \\n, and nothing else of C0', () => {
    const lines = freeText({ max: 100, tooLong: 'At most 100', lines: 'multi' });
    expect(v.parse(lines, 'one\r\ntwo\rthree\n\tfour')).toBe('one\ntwo\nthree\n\tfour');
    expect(issue(lines, 'one\n\u0000two')).toBe(TEXT_MESSAGES.unreadable);
    expect(issue(lines, 'one\u000btwo')).toBe(TEXT_MESSAGES.unreadable);
  });

  it('collapses whitespace to one space in a text shown on one line, refusing controls', () => {
    const collapsed = freeText({ max: 100, tooLong: 'At most 100', lines: 'collapse' });
    expect(v.parse(collapsed, ' run\n\n validators\t now ')).toBe('run validators now');
    expect(issue(collapsed, 'run\u0007validators')).toBe(TEXT_MESSAGES.unreadable);
  });
});
