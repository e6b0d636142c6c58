// Packages with native code (argon2's .node binary) that esbuild cannot bundle: every server
// function installs them into its own node_modules instead (Linux x64, as Lambda runs). Plain data,
// so `npm run deploy:proof` builds its artifacts from the same list.
export const NATIVE_MODULES = ['@node-rs/argon2'];
