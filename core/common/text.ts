// The one rule for free text the product stores (suggestions, names, clues, messages, what admins
// type): NFC, trimmed, bounded, and free of characters nobody types. Browser-safe, like the rest
// of core/common.
import * as v from 'valibot';

export const TEXT_MESSAGES = {
  unreadable:
    'This text contains control characters or unreadable symbols (such as �). Please remove them.',
} as const;

/**
 * C0 and C1 control characters (NUL and DEL included), halves of a character (lone surrogates)
 * and U+FFFD, which is what a request's invalid UTF-8 decodes to.
 */
const UNREADABLE = /[\p{Cc}\p{Cs}\uFFFD]/u;
/** The same, except the line breaks and tabs a multi-line field holds. */
const UNREADABLE_IN_LINES = /[^\P{Cc}\t\n]|[\p{Cs}\uFFFD]/u;

/** Whether `text` holds none of the characters above (a multi-line text may hold \n and \t). */
export function isReadable(text: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? UNREADABLE_IN_LINES : UNREADABLE).test(text);
}

/**
 * How a field treats line breaks: `single` is a one-line field (a line break is refused like any
 * control character), `multi` a textarea whose line breaks and tabs are kept (\r\n, which a
 * textarea sends, becoming \n), `collapse` a text shown on one line, every run of whitespace
 * (line breaks included) becoming one space.
 */
export type Lines = 'single' | 'multi' | 'collapse';

const LINE_BREAKS: Record<Lines, (text: string) => string> = {
  single: (text) => text,
  multi: (text) => text.replace(/\r\n?/g, '\n'),
  collapse: (text) => text.replace(/\s+/g, ' '),
};

/**
 * Free text as it is stored: NFC (so one word has one spelling), line breaks as `lines` says,
 * trimmed, readable and at most `max` characters. `missing` is the message for a value that is
 * not text at all. Callers add their own rules (not empty, a minimum length) after it.
 */
export function freeText(options: {
  max: number;
  tooLong: string;
  missing?: string;
  lines?: Lines;
}) {
  const { max, tooLong, missing, lines = 'single' } = options;
  return v.pipe(
    v.string(missing),
    v.normalize('NFC'),
    v.transform(LINE_BREAKS[lines]),
    v.trim(),
    v.check((text) => isReadable(text, { multiline: lines === 'multi' }), TEXT_MESSAGES.unreadable),
    v.maxLength(max, tooLong),
  );
}
