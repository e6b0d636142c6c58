// What entry.server hands to the document shell: the response's CSP nonce for inline scripts.
import { createContext, useContext } from 'react';

type DocumentContext = { nonce: string };

const Context = createContext<DocumentContext>({ nonce: '' });
export const DocumentProvider = Context.Provider;
/**
 * The nonce for inline scripts. In the browser it is read back from a script the server rendered,
 * so elements React re-creates there (leaving an error page) keep a valid nonce.
 */
export function useNonce(): string {
  const { nonce } = useContext(Context);
  if (typeof document === 'undefined') return nonce;
  return (document.querySelector('script[nonce]') as HTMLScriptElement | null)?.nonce ?? '';
}
