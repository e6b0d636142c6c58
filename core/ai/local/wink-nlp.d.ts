// wink-nlp declares its utilities without the .js extension that Node's ESM resolver (Playwright's
// loader) needs; this names the same module under its full file name.
declare module 'wink-nlp/utilities/bm25-vectorizer.js' {
  export * from 'wink-nlp/utilities/bm25-vectorizer';
  export { default } from 'wink-nlp/utilities/bm25-vectorizer';
}
