// The per-response CSP nonce, handed from entry.server to the document's inline scripts.
import { createContext, useContext } from 'react';

const NonceContext = createContext('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
