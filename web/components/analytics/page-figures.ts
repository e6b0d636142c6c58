// The analytics sections' HTML beside the page's loader data, never in it: a document then
// carries it once, as HTML, and not a second time escaped in the data for hydration (ADR 0068).
// Filled by the loader on the server; empty in the browser, where the document's HTML stays.
const htmlOfPage = new WeakMap<object, string>();

/** `page`, with the sections' HTML kept beside it for the server's rendering. */
export function withFiguresHtml<T extends object>(page: T, html: string): T {
  htmlOfPage.set(page, html);
  return page;
}

/** The sections' HTML of the loader data `page`: found on the server, undefined in the browser. */
export const figuresHtmlOf = (page: object): string | undefined => htmlOfPage.get(page);
