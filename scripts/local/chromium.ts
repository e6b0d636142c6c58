// Debian's Chromium as every browser tool here starts it: the Playwright journeys (its headless
// shell), Lighthouse and the page-weight bench (the full browser). Without the
// background-networking flags it keeps trying hosts this closed network refuses.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's headless shell (package chromium-headless-shell), which the Playwright journeys run
 * in, as Playwright runs headless Chromium by default: the same engine without the browser's UI
 * layer. On 2 cores the 183 journeys took 4.1 min in it against 6.1 min in full Chromium
 * (docs/performance.md). Lighthouse and the page-weight bench keep the full browser.
 */
export const HEADLESS_SHELL_PATH =
  process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
