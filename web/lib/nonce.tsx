// What entry.server hands to the document shell: the response's CSP nonce and the stylesheet,
// which is inlined so the first paint waits for no second request.
import { createContext, useContext } from 'react';

type DocumentContext = { nonce: string; css: string };

const Context = createContext<DocumentContext>({ nonce: '', css: '' });
export const DocumentProvider = Context.Provider;
/**
 * The nonce for inline scripts and styles. In the browser it is read back from the inlined
 * stylesheet, so elements React re-creates there (leaving an error page) keep a valid nonce.
 */
export function useNonce(): string {
  const { nonce } = useContext(Context);
  if (typeof document === 'undefined') return nonce;
  return (document.getElementById('app-css') as HTMLStyleElement | null)?.nonce ?? '';
}

/** The stylesheet's text: from the server while rendering, from the page itself when hydrating. */
export function useInlineCss(): string {
  const { css } = useContext(Context);
  if (typeof document === 'undefined') return css;
  return document.getElementById('app-css')?.textContent ?? '';
}
