// Top frames of a V8 CPU profile (`node --cpu-prof`), by self time and by total time, over the
// load window only: from the first to the last sample inside Remix's request handler within the
// profile's last LAST seconds (default 15). Percentages are of the busy (not idle) time.
//   node scripts/bench/profile-top.mjs CPU.*.cpuprofile [frames=12]
//   CALLERS=stat node scripts/bench/profile-top.mjs ...   also prints who calls frames named stat*
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const frames = Number(process.argv[3] ?? 12);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const name = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/.*node_modules\//, '')
    .replace(/^file:\/\/.*?\/(?=(web|core|scripts)\/)/, '');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
};
const stack = function* (id) {
  for (let current = id; current !== undefined; current = parent.get(current))
    yield byId.get(current);
};

const last = Number(process.env.LAST ?? 15) * 1e6;
const times = [];
let clock = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) times.push((clock += profile.timeDeltas[i] ?? 0));
const inHandler = (id) =>
  [...stack(id)].some((node) => node.callFrame.url.includes('server-runtime/dist/server.js'));
let from = Infinity;
let to = -Infinity;
profile.samples.forEach((id, i) => {
  if (times[i] > profile.endTime - last && inHandler(id)) {
    from = Math.min(from, times[i]);
    to = Math.max(to, times[i]);
  }
});

const spent = new Map();
profile.samples.forEach((id, i) => {
  if (times[i] >= from && times[i] <= to)
    spent.set(id, (spent.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const self = new Map();
const total = new Map();
let idle = 0;
let all = 0;
for (const [id, us] of spent) {
  all += us;
  const key = name(byId.get(id));
  if (key.startsWith('(idle)')) idle += us;
  self.set(key, (self.get(key) ?? 0) + us);
  for (const key of new Set([...stack(id)].map(name))) total.set(key, (total.get(key) ?? 0) + us);
}
const busy = all - idle;
console.log(
  `window ${((to - from) / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s`,
);
const show = (title, map) => {
  console.log(title);
  const rows = [...map]
    .filter(([key]) => !/^\((idle|root)\)/.test(key))
    .sort((a, b) => b[1] - a[1]);
  for (const [key, us] of rows.slice(0, frames)) {
    console.log(
      `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${key}`,
    );
  }
};
show('SELF', self);
show('TOTAL', total);
if (process.env.CALLERS) {
  const callers = new Map();
  for (const [id, us] of spent) {
    if (!name(byId.get(id)).startsWith(process.env.CALLERS)) continue;
    const chain = [...stack(id)].slice(1, 8).map(name).join(' <- ');
    callers.set(chain, (callers.get(chain) ?? 0) + us);
  }
  console.log(`CALLERS of ${process.env.CALLERS}`);
  for (const [chain, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 4)) {
    console.log(`${(us / 1000).toFixed(0)} ms: ${chain}`);
  }
}
