// Original posts are written in Markdown; they reach the page only as HTML sanitized by the same
// policy as imported articles (core/html).
import { marked } from 'marked';
import { sanitizeContent } from '#core/html';

export function renderMarkdown(markdown: string): string {
  return sanitizeContent(marked.parse(markdown, { async: false, gfm: true }));
}
