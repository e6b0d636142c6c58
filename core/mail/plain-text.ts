// The plain-text part of an e-mail, made from its HTML as @react-email's `toPlainText` makes it,
// with html-to-text's options compiled once per kind of text instead of on every call (compiling
// them was half the cost of a newsletter e-mail's text).
import { plainTextSelectors } from '@react-email/render';
import { compile, type HtmlToTextOptions } from 'html-to-text';

function converter(options: HtmlToTextOptions = {}): (html: string) => string {
  return compile({
    wordwrap: false,
    ...options,
    selectors: [...plainTextSelectors, ...(options.selectors ?? [])],
  });
}

/** Every e-mail's text but the digest's. */
export const plainText = converter();

/**
 * The digest's text: story titles and section headings keep their case (html-to-text shouts
 * headings by default, and a page of capitals is hard to read).
 */
export const digestPlainText = converter({
  selectors: ['h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false } })),
});
