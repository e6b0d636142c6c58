// HTML we did not write (feed content, editors' Markdown) reaches our pages only through
// `sanitizeContent`; summaries and fingerprints use its plain text.
import sanitizeHtml from 'sanitize-html';

/** A URL made absolute against `base`; undefined when it cannot be one. */
export function absoluteUrl(value: string | undefined, base?: string): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}

const contentOptions = (base: string | undefined): sanitizeHtml.IOptions => ({
  allowedTags: [
    'p',
    'br',
    'hr',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'a',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'code',
    'pre',
    'blockquote',
    'q',
    'cite',
    'ul',
    'ol',
    'li',
    'figure',
    'figcaption',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  },
  allowedSchemes: ['https', 'http', 'mailto'],
  // Plain-http images would be mixed content on our https pages.
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  transformTags: {
    // Our page's own heading is the article title.
    h1: 'h2',
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...attribs,
        ...(attribs.href !== undefined && { href: absoluteUrl(attribs.href, base) ?? '' }),
        rel: 'nofollow noopener noreferrer',
      },
    }),
    img: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, src: absoluteUrl(attribs.src, base) ?? '', loading: 'lazy' },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
});

/** Safe HTML: basic formatting, links marked nofollow, https images; relative URLs made absolute. */
export function sanitizeContent(html: string, base?: string): string {
  return sanitizeHtml(html, contentOptions(base)).trim();
}

const BLOCK_BOUNDARY =
  /<\/?(?:p|div|br|hr|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|pre|figure|figcaption|section|article|header|footer)\b[^>]*>/gi;

/** The readable text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  const text = sanitizeHtml(html.replace(BLOCK_BOUNDARY, '$& '), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title'],
  });
  // sanitize-html re-escapes only these in text; undo them to get the characters back.
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Plain text as HTML paragraphs (blank lines separate them). */
export function textToHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join('');
}

const MARKUP = /<\/?[a-z][^>]*>|&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i;

/** Titles in RSS are often HTML in disguise ("AT&amp;amp;T", "<em>Breaking</em>"). */
export function looksLikeHtml(text: string): boolean {
  return MARKUP.test(text);
}
