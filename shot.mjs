import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-dev-shm-usage','--disable-background-networking'] });
const [url, out, w, h, full] = process.argv.slice(2);
const p = await b.newPage({ viewport: { width: Number(w||1280), height: Number(h||900) } });
await p.goto(url);
await p.waitForTimeout(500);
await p.screenshot({ path: out, fullPage: full === 'full' });
await b.close();
