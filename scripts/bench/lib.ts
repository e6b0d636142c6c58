// Shared helpers for benchmarks: run the app as a child process, load it with autocannon, audit it
// with Lighthouse, measure a baseline twice and print ratios only to a steady one (see "Honest
// figures" below), and print plain-text tables.
import { readdirSync, readFileSync } from 'node:fs';
import { CHROMIUM_ARGS } from '../local/chromium';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// @ts-expect-error -- autocannon ships no type declarations; `LoadRunner` below types what we use.
import autocannon from 'autocannon';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { freePort } from '../local/net';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

// ---------------------------------------------------------------------------
// Cleanup: run registered teardown on normal exit, errors and Ctrl-C.
// ---------------------------------------------------------------------------

type Teardown = { async: () => Promise<void>; sync: () => void; done: boolean };
const teardowns: Teardown[] = [];
let handlersInstalled = false;
let tearingDown: Promise<void> | undefined;

/** Runs every registered teardown once (latest first). Safe to call more than once. */
export function cleanup(): Promise<void> {
  tearingDown ??= (async () => {
    for (const teardown of [...teardowns].reverse()) {
      if (teardown.done) continue;
      try {
        await teardown.async();
        teardown.done = true;
      } catch (error) {
        console.error('Cleanup failed:', error instanceof Error ? error.message : error);
      }
    }
  })();
  return tearingDown;
}

/**
 * Registers a teardown: `async` runs from `cleanup()` (and on SIGINT/SIGTERM/SIGHUP), `sync` is
 * the last resort from the process 'exit' event (where nothing asynchronous can run) for any
 * teardown that has not completed.
 */
export function onCleanup(async: () => Promise<void>, sync: () => void = () => {}): void {
  teardowns.push({ async, sync, done: false });
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      // A second signal while stopping exits at once; the 'exit' handler still kills children.
      if (tearingDown) process.exit(130);
      console.error(`\nReceived ${signal}, stopping...`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  process.once('exit', () => {
    for (const teardown of [...teardowns].reverse()) {
      if (teardown.done) continue;
      try {
        teardown.sync();
      } catch {
        // Already gone.
      }
    }
  });
}

// ---------------------------------------------------------------------------
// The app as a child process
// ---------------------------------------------------------------------------

export type RunningApp = {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /**
   * The first group of `pattern` in a line the app printed on stdout (since it started), waiting
   * up to `timeoutMs` for it: e.g. the jobs queue's endpoint from npm start's banner.
   */
  printed: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
};

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Stops a detached child's whole process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcessGroup(pid: number, graceMs = 8_000): Promise<void> {
  if (!groupAlive(pid)) return;
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
}

export type StartAppOptions = {
  timeoutMs?: number;
  /** Extra `scripts/start.ts` arguments, e.g. `['--mail-dir', dir]`. */
  args?: string[];
  /** Extra environment for the app, on top of this process's; a function gets the chosen ports. */
  env?:
    | Record<string, string>
    | ((ports: { port: number; dynamoPort: number }) => Record<string, string>);
};

/**
 * Starts `scripts/start.ts --ephemeral` on free ports in its own process group (so DynamoDB Local,
 * its grandchild, goes with it), waits until /healthz answers, and registers its teardown.
 */
export async function startApp(
  options: StartAppOptions = {},
): Promise<RunningApp & { dynamoPort: number }> {
  const port = await freePort();
  const dynamoPort = await freePort();
  const extraEnv =
    typeof options.env === 'function' ? options.env({ port, dynamoPort }) : (options.env ?? {});
  const child = spawn(
    'npx',
    [
      'tsx',
      'scripts/start.ts',
      '--ephemeral',
      '--port',
      String(port),
      '--dynamo-port',
      String(dynamoPort),
      ...(options.args ?? []),
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...extraEnv },
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('Could not start the app (no pid).');
  onCleanup(
    () => stopProcessGroup(pid),
    () => killGroup(pid, 'SIGKILL'),
  );

  let ready = false;
  let output = '';
  // The start's stdout lines (its banner), for `printed`; later lines only while someone waits.
  const startLines: string[] = [];
  let partial = '';
  const waiting = new Set<(line: string) => void>();
  const lines = (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      if (startLines.length < 1_000) startLines.push(line);
      for (const wait of waiting) wait(line);
    }
  };
  // Everything goes to our stderr; the app's stdout (a line per e-mail, say) only until it is ready.
  const relay = (source: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    if (source === 'stdout') lines(text);
    if (!ready || source === 'stderr') {
      process.stderr.write(text.replace(/^(?=.)/gm, '[app] '));
    }
  };
  child.stdout?.on('data', relay('stdout'));
  child.stderr?.on('data', relay('stderr'));
  const printed = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const found = (line: string) => pattern.exec(line)?.[1];
      const already = startLines.map(found).find((value) => value !== undefined);
      if (already !== undefined) return resolve(already);
      const timer = setTimeout(() => {
        waiting.delete(wait);
        reject(new Error(`The app printed no line matching ${pattern} in ${timeoutMs} ms`));
      }, timeoutMs);
      const wait = (line: string) => {
        const value = found(line);
        if (value === undefined) return;
        clearTimeout(timer);
        waiting.delete(wait);
        resolve(value);
      };
      waiting.add(wait);
    });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The app exited before it was ready (code ${child.exitCode ?? child.signalCode}).\n${output}`,
      );
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        await response.text();
        break;
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`The app did not become healthy.\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  ready = true;
  return { baseUrl, port, dynamoPort, child, printed };
}

/** Signs in through a sign-in form (no redirect followed) and gives the session's Cookie header. */
export async function signIn(
  baseUrl: string,
  path: string,
  form: Record<string, string>,
): Promise<string> {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: { Origin: baseUrl },
    redirect: 'manual',
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (response.status !== 302 || !cookie) {
    throw new Error(`Signing in at ${path} answered ${response.status} without a session`);
  }
  return cookie;
}

/** Requests each URL a few times and checks every answer is 2xx (no redirects followed). */
export async function warmUp(urls: string[], rounds = 5, headers: Record<string, string> = {}) {
  for (const url of urls) {
    for (let i = 0; i < rounds; i++) {
      const response = await fetch(url, { headers, redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status < 200 || response.status > 299) {
        throw new Error(`Warm-up: ${url} answered ${response.status}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Load: autocannon
// ---------------------------------------------------------------------------

type Histogram = { average: number; mean: number; stddev: number; min: number; max: number } & {
  [percentile: `p${string}`]: number;
};
export type LoadResult = {
  url: string;
  requests: Histogram & { total: number };
  latency: Histogram;
  throughput: Histogram & { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Answers `verifyBody` refused. */
  mismatches: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
};
type LoadOptions = {
  url: string;
  connections: number;
  /** Seconds to run; or `amount`: this many requests, then stop. */
  duration?: number;
  amount?: number;
  /** Seconds an answer may take before it counts as an error (autocannon's default: 10). */
  timeout?: number;
  headers?: Record<string, string>;
  /** Checks each answer's body (as text: ask for it uncompressed); a refusal is a mismatch. */
  verifyBody?: (body: string) => boolean;
};
type LoadRunner = (options: LoadOptions) => Promise<LoadResult>;

/** One autocannon run (programmatic API). */
export function load(options: LoadOptions): Promise<LoadResult> {
  return (autocannon as LoadRunner)(options);
}

/** Browser-like request headers (compressed responses, HTML preferred). */
export const BROWSER_HEADERS: Record<string, string> = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip',
  'accept-language': 'en-GB,en;q=0.9',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

// ---------------------------------------------------------------------------
// Lighthouse
// ---------------------------------------------------------------------------

export const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

export type LighthouseChrome = { port: number; kill: () => Promise<void> };

export async function launchChrome(chromePath: string): Promise<LighthouseChrome> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  let killed = false;
  const kill = async () => {
    if (killed) return;
    killed = true;
    await chrome.kill();
  };
  onCleanup(kill, () => {
    try {
      process.kill(chrome.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  });
  return { port: chrome.port, kill };
}

/** Runs Lighthouse with its default (mobile, simulated throttling) config. */
export async function runLighthouse(
  url: string,
  port: number,
  categories: string[],
  extraFlags: Flags = {},
): Promise<Result> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: categories,
    maxWaitForLoad: 60_000,
    ...extraFlags,
  });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  if (result.lhr.runtimeError) {
    throw new Error(
      `Lighthouse failed on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
    );
  }
  return result.lhr;
}

export type FailingAudit = {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  explanation?: string;
  errorMessage?: string;
  warnings: string[];
  items: string[];
};

const SKIPPED_MODES = new Set(['notApplicable', 'informative', 'manual']);

/** Audits of a category that score below 1 (or errored), with their details as plain text. */
export function failingAudits(lhr: Result, categoryId: string): FailingAudit[] {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  const failing: FailingAudit[] = [];
  for (const ref of category.auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || SKIPPED_MODES.has(audit.scoreDisplayMode)) continue;
    const errored = audit.scoreDisplayMode === 'error';
    if (!errored && (audit.score === null || audit.score >= 1)) continue;
    failing.push({
      id: audit.id,
      title: audit.title,
      score: audit.score,
      scoreDisplayMode: audit.scoreDisplayMode,
      displayValue: audit.displayValue,
      explanation: audit.explanation,
      errorMessage: audit.errorMessage,
      warnings: (audit.warnings ?? []).map(String),
      items: describeDetails(audit.details as Details | undefined),
    });
  }
  return failing;
}

// The LHR `details` union is large; this covers the shapes that carry per-item evidence: tables
// and opportunities (with sub-items), lists of them, insight list sections, checklists, nodes and
// request chains.
type Heading = { key: string | null; valueType?: string; label?: unknown };
type Details = {
  type: string;
  headings?: Heading[];
  items?: unknown;
  chains?: Record<string, Chain>;
  title?: string;
  value?: unknown;
};
type Chain = {
  url?: string;
  request?: { url: string };
  navStartToEndTime?: number;
  transferSize?: number;
  children?: Record<string, Chain>;
};

function duration(ms: number): string {
  if (ms >= 86_400_000) return `${Math.round(ms / 8_640_000) / 10} d`;
  if (ms >= 3_600_000) return `${Math.round(ms / 360_000) / 10} h`;
  if (ms >= 60_000) return `${Math.round(ms / 6_000) / 10} min`;
  return `${Math.round(ms)} ms`;
}

function cell(value: unknown, valueType?: string): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'number') {
    if (valueType === 'bytes') return `${(value / 1024).toFixed(1)} KiB`;
    if (valueType === 'ms' || valueType === 'timespanMs') return duration(value);
    return String(Math.round(value * 100) / 100);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    switch (v.type) {
      case 'node': {
        const label = v.nodeLabel && v.nodeLabel !== v.selector ? `"${String(v.nodeLabel)}"` : '';
        const text = [v.selector, label, v.snippet].filter(Boolean).map(String).join(' ');
        return v.explanation ? `${text}\n      -> ${String(v.explanation)}` : text;
      }
      case 'url':
      case 'code':
      case 'text':
        return String(v.value);
      case 'link':
        return `${String(v.text)} (${String(v.url)})`;
      case 'source-location':
        return `${String(v.url)}:${Number(v.line) + 1}:${Number(v.column) + 1}`;
      case 'numeric':
        return cell(v.value, valueType);
      default:
        if ('formattedDefault' in v) return String(v.formattedDefault);
        return JSON.stringify(value);
    }
  }
  return String(value);
}

function describeItem(item: Record<string, unknown>, headings: Heading[]): string {
  const keys = headings.length
    ? headings.filter((h) => h.key).map((h) => ({ key: h.key as string, type: h.valueType }))
    : Object.keys(item).map((key) => ({ key, type: undefined }));
  const parts = keys
    .map(({ key, type }) => {
      const text = cell(item[key], type);
      return text ? (headings.length ? text : `${key}: ${text}`) : '';
    })
    .filter(Boolean);
  let line = parts.join(' | ');
  const sub = item.subItems as { items?: Record<string, unknown>[] } | undefined;
  for (const subItem of sub?.items ?? []) {
    line += `\n      - ${describeItem(subItem, [])}`;
  }
  return line;
}

function describeChains(chains: Record<string, Chain>, depth = 0): string[] {
  return Object.values(chains).flatMap((chain) => {
    const timing = [
      chain.navStartToEndTime === undefined ? '' : `${Math.round(chain.navStartToEndTime)} ms`,
      chain.transferSize === undefined ? '' : `${(chain.transferSize / 1024).toFixed(1)} KiB`,
    ].filter(Boolean);
    const suffix = timing.length ? ` (${timing.join(', ')})` : '';
    return [
      `${'  '.repeat(depth)}${chain.url ?? chain.request?.url ?? '?'}${suffix}`,
      ...describeChains(chain.children ?? {}, depth + 1),
    ];
  });
}

function headingLabel(heading: Heading): string {
  const label = heading.label;
  if (typeof label === 'string' && label) return label;
  return heading.key ?? '';
}

/** Plain-text lines for an audit's `details`. */
export function describeDetails(details: Details | undefined): string[] {
  if (!details || typeof details !== 'object') return [];
  switch (details.type) {
    case 'criticalrequestchain':
    case 'network-tree':
      return describeChains(details.chains ?? {});
    case 'list':
      return (Array.isArray(details.items) ? details.items : []).flatMap((sub) =>
        describeDetails(sub as Details),
      );
    case 'list-section': {
      const inner = describeDetails(details.value as Details | undefined);
      return details.title ? [`${details.title}:`, ...inner.map((l) => `  ${l}`)] : inner;
    }
    case 'checklist':
      return Object.values(
        (details.items ?? {}) as Record<string, { label: string; value: boolean }>,
      ).map((check) => `[${check.value ? 'x' : ' '}] ${check.label}`);
    case 'node':
    case 'text':
    case 'url':
    case 'code':
      return [cell(details)];
    case 'table':
    case 'opportunity': {
      const items = Array.isArray(details.items) ? details.items : [];
      if (items.length === 0) return [];
      const headings = details.headings ?? [];
      const columns = headings.filter((h) => h.key).map(headingLabel);
      return [
        ...(columns.length ? [`(${columns.join(' | ')})`] : []),
        ...items.map((item) => describeItem(item as Record<string, unknown>, headings)),
      ];
    }
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------
// Honest figures: every bench measures its baseline in the same run, once before and once after
// what it measures, prints the load average before and after, and gives a ratio to the baseline
// only when the baseline held still (its two passes within MAX_BASELINE_SPREAD of each other);
// when it moved, a verdict only if the ratio to each pass gives the same one.
//
//   const loadBefore = loadAverage();
//   const first = await measureBaseline();        // e.g. bare Node http req/s
//   const measured = await measureTheThing();
//   const base = baseline('bare Node http', 'req/s', first, await measureBaseline());
//   console.log(report('Title', loadBefore, [base]).join('\n'));
//   console.log(`ratio ${ratio(measured, base).text}`);
// ---------------------------------------------------------------------------

/** The most a baseline may move between its two passes (of the larger) before ratios to it mean nothing. */
export const MAX_BASELINE_SPREAD = 0.2;

/** The load average over 1, 5 and 15 minutes, e.g. `3.10 2.40 1.95`. */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

/** A baseline measured twice in one run: before and after what the bench measures. */
export type Baseline = {
  name: string;
  unit: string;
  before: number;
  after: number;
  /** The mean of the two passes, what ratios divide by. */
  value: number;
  /** How far apart the passes are, as a share of the larger (0.1 = 10%). */
  spread: number;
  /** The passes are within MAX_BASELINE_SPREAD of each other. */
  steady: boolean;
};

export function baseline(name: string, unit: string, before: number, after: number): Baseline {
  const larger = Math.max(Math.abs(before), Math.abs(after));
  const spread = larger === 0 ? 0 : Math.abs(before - after) / larger;
  return {
    name,
    unit,
    before,
    after,
    value: (before + after) / 2,
    spread,
    steady: spread <= MAX_BASELINE_SPREAD,
  };
}

/** A ratio to a baseline, or, when the baseline moved, the ratios to each of its two passes. */
export type Ratio = { value?: number; range?: [number, number]; text: string };

/**
 * `measured / baseline.value` (`value`, and as `text` to two decimals). When the baseline moved
 * more than MAX_BASELINE_SPREAD between its passes there is no single ratio: `range` holds the
 * ratios to each pass, lower first, and `text` says why and gives them.
 */
export function ratio(measured: number, base: Baseline): Ratio {
  if (!base.steady) {
    const moved = `${base.name} moved ${percent(base.spread)} between passes`;
    const low = Math.min(Math.abs(base.before), Math.abs(base.after));
    if (low === 0) return { text: `n/a (${moved})` };
    const range = [base.before, base.after].map((pass) => measured / pass).sort((a, b) => a - b);
    const [lower, higher] = range as [number, number];
    return {
      range: [lower, higher],
      text: `n/a (${moved}; ${lower.toFixed(2)} and ${higher.toFixed(2)} of its passes)`,
    };
  }
  if (base.value === 0) return { text: `n/a (${base.name} is 0)` };
  const value = measured / base.value;
  return { value, text: value.toFixed(2) };
}

/**
 * Whether a ratio meets a target (`at least` for throughput, `at most` for latency): `PASS` or
 * `FAIL`. When the baseline moved, a verdict holds only if the ratio to each of its passes gives
 * it (`PASS against both passes`, `FAIL against both passes`), and is `NO VERDICT` otherwise.
 */
export function verdict(r: Ratio, target: { atLeast: number } | { atMost: number }): string {
  const meets = (value: number) =>
    'atLeast' in target ? value >= target.atLeast : value <= target.atMost;
  if (r.value !== undefined) return meets(r.value) ? 'PASS' : 'FAIL';
  if (!r.range) return 'NO VERDICT';
  const [lower, higher] = r.range;
  if (meets(lower) && meets(higher)) return 'PASS against both passes';
  if (!meets(lower) && !meets(higher)) return 'FAIL against both passes';
  return 'NO VERDICT';
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function figure(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-GB') : value.toFixed(1);
}

/**
 * The lines a bench prints above its own figures: the title, the machine, the load average before
 * (as given) and now, and each baseline with its two passes and whether it held still.
 */
export function report(title: string, loadBefore: string, baselines: Baseline[]): string[] {
  return [
    '='.repeat(72),
    title,
    '='.repeat(72),
    `Node ${process.version}, ${cpus().length} CPUs; load average before ${loadBefore}, after ${loadAverage()}`,
    ...baselines.map(
      (b) =>
        `Baseline ${b.name}: ${figure(b.before)} then ${figure(b.after)} ${b.unit} ` +
        `(${percent(b.spread)} apart: ${b.steady ? 'steady' : `MOVED more than ${percent(MAX_BASELINE_SPREAD)}, no ratios to it`})`,
    ),
    '',
  ];
}

/** What the processes of the app's runtime are, told apart by their command line. */
const RUNTIME_PROCESSES: [name: string, pattern: RegExp][] = [
  ['DynamoDB Local', /DynamoDBLocal\.jar/],
  ['web server', /web-server\.js/],
  ['jobs worker', /local\/worker\.js/],
  ['schedules', /local\/schedules\.js/],
  ['runtime (queue, SMTP sink)', /scripts\/start\.ts/],
];

/** A process's group and its CPU time so far (ms, user + system), from /proc. */
export function processStat(pid: number): { processGroup: number; cpuMs: number } {
  const msPerTick = 10; // USER_HZ is 100 on Linux
  // Fields after the command's closing bracket: state ppid pgrp ... utime(12) stime(13).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return {
    processGroup: Number(fields[2]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * msPerTick,
  };
}

/**
 * CPU time (ms, user + system) so far of each process of a process group (the app startApp
 * started), by the names above; what a bench divides by its requests to show where the cost is.
 */
export function runtimeCpu(processGroup: number): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { processGroup: group, cpuMs } = processStat(Number(entry));
      if (group !== processGroup) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      const name = RUNTIME_PROCESSES.find(([, pattern]) => pattern.test(command))?.[0];
      if (!name) continue;
      cpu.set(name, (cpu.get(name) ?? 0) + cpuMs);
    } catch {
      // Gone while we looked.
    }
  }
  return cpu;
}

/**
 * Waits until the app's processes (a process group startApp started) are quiet: under `share` of
 * one core, summed, for two seconds running, or `maxMs` at most. Work the seeding left behind (a
 * worker's jobs, DynamoDB Local's collection of garbage) then does not fall into a measured pass.
 * Answers how long it waited and whether the processes went quiet.
 */
export async function settled(
  processGroup: number,
  { share = 0.05, maxMs = 120_000 } = {},
): Promise<{ ms: number; quiet: boolean }> {
  const started = Date.now();
  const total = () => [...runtimeCpu(processGroup).values()].reduce((sum, ms) => sum + ms, 0);
  let quietSeconds = 0;
  let last = total();
  while (Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = total();
    quietSeconds = now - last < share * 1_000 ? quietSeconds + 1 : 0;
    last = now;
    if (quietSeconds >= 2) return { ms: Date.now() - started, quiet: true };
  }
  return { ms: Date.now() - started, quiet: false };
}

/** Stops a child process the bench started when the bench ends: SIGTERM, or SIGKILL on exit. */
export function stopOnCleanup(child: ChildProcess): void {
  onCleanup(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
    () => child.kill('SIGKILL'),
  );
}

/**
 * Starts a baseline server (scripts/bench/bare-server.mjs) as a process of its own, as the app
 * is: bare Node http, or Express with compression; each answers "ok" to any request.
 */
export async function startBareServer(
  kind: 'node' | 'express',
): Promise<{ url: string; pid: number }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'bench', 'bare-server.mjs'), kind], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  stopOnCleanup(child);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bare-server.mjs ${kind} exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid! };
}

// ---------------------------------------------------------------------------
// Plain-text tables
// ---------------------------------------------------------------------------

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((text, i) => (i === 0 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A bench's count checks as a table: what, expected, actual, and ok or MISMATCH. */
export function checksTable(
  checks: { what: string; expected: number | string; actual: number | string }[],
): string {
  return table(
    ['check', 'expected', 'actual', ''],
    checks.map(({ what, expected, actual }) => [
      what,
      String(expected),
      String(actual),
      actual === expected ? 'ok' : 'MISMATCH',
    ]),
  );
}

/**
 * Whether the module at `moduleUrl` is the script node was started with: a bench runs its main
 * then, and not when another bench (bench:peers) imports its seeding.
 */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(resolve(script)).href;
}

/** Runs a benchmark's main, cleans up what it started, and exits with its code (1 on a crash). */
export function runBench(main: () => Promise<number>): void {
  main()
    .catch((error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      return 1;
    })
    .then(async (code) => {
      await cleanup();
      process.exit(code);
    });
}
