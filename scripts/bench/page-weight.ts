// npm run bench:page-weight: the JavaScript each public page makes Chromium load (entry, chunks,
// route modules, manifest, inline scripts), raw and gzip, against the 60 KB budget (ADR 35), with
// two app pages beside them for scale.
//   CHROMIUM_PATH=/usr/bin/chromium
import { chromium } from '@playwright/test';
import { cpus, loadavg } from 'node:os';
import { javaScriptOf, PUBLIC_PAGE_JS_BUDGET } from '#tests/page-javascript';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../local/chromium';
import { audiences, posts } from '../seed/data';
import { onCleanup, runBench, startApp, table } from './lib';

const kb = (bytes: number) => (bytes / 1000).toFixed(1);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main() {
  const audience =
    audiences.find((a) => a.key === 'defi-builders') ?? audiences.find((a) => a.state === 'active');
  // The pages bench:public-pages audits: the audience's newest original post.
  const post =
    posts
      .filter((p) => p.audience === audience?.key && p.content)
      .sort((a, b) => b.date.localeCompare(a.date))[0] ?? posts[0];
  if (!audience || !post) throw new Error('The seed data has no active audience or post.');
  const pages = [
    { path: '/', public: true },
    { path: `/a/${audience.slug}`, public: true },
    { path: `/p/${post.slug}`, public: true },
    { path: '/about', public: false },
    { path: '/get-started', public: false },
  ];

  const loadBefore = load();
  console.error('Starting the app (builds it first if stale)...');
  const app = await startApp();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  onCleanup(() => browser.close());
  const rows: string[][] = [];
  const details: string[] = [];
  let over = 0;
  for (const { path, public: isPublic } of pages) {
    const context = await browser.newContext();
    const javaScript = await javaScriptOf(await context.newPage(), app.baseUrl + path);
    await context.close();
    const fits = javaScript.gzip <= PUBLIC_PAGE_JS_BUDGET;
    if (isPublic && !fits) over += 1;
    rows.push([
      path,
      isPublic ? 'public' : 'app',
      String(javaScript.scripts.length),
      kb(javaScript.bytes),
      kb(javaScript.gzip),
      isPublic ? (fits ? 'yes' : 'NO') : '-',
    ]);
    details.push(`${path}:`);
    for (const script of javaScript.scripts) {
      const source = script.source.replace(app.baseUrl, '');
      details.push(`  ${kb(script.gzip).padStart(6)} KB gzip  ${source.slice(0, 100)}`);
    }
  }

  console.log(
    [
      '',
      '='.repeat(72),
      'Cluefeed page weight: JavaScript a page loads',
      '='.repeat(72),
      `Date: ${new Date().toISOString()}  Node ${process.version}  CPUs: ${cpus().length}`,
      `load average before: ${loadBefore}  after: ${load()}`,
      `Budget for a public page: ${kb(PUBLIC_PAGE_JS_BUDGET)} KB gzip (1 KB = 1000 bytes)`,
      '',
      table(['page', 'kind', 'scripts', 'raw KB', 'gzip KB', 'within budget'], rows),
      '',
      ...details,
      '='.repeat(72),
    ].join('\n'),
  );
  return over > 0 ? 1 : 0;
}

runBench(main);
