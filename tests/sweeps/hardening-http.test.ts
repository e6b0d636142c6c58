// Issue 32, items 3, 4 and 5 over the built app, as the attack review probed them: real HTTP to
// the local server (what `npm start` serves), beacons from ten real loopback addresses (the front
// door takes the socket's address, whatever X-Forwarded-For says), page-view tokens read from
// pages actually fetched, an admin signed in, and a model server on a local port counting what
// reaches it.
import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Analytics from '#core/analytics';
import { ASSESSMENT_MESSAGES, PUBLIC_BUDGET } from '#core/assessment';
import * as Worker from '#core/worker';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { config } from '#core/config';
import * as Experiments from '#core/experiments';
import * as Jobs from '#core/jobs';
import * as RateLimit from '#core/rate-limit';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import {
  logsDuring,
  send,
  startLocalServer,
  type LocalServer,
} from '#tests/integration/local-server';
import { signedInAdmin } from '#web/lib/admin.server.test-helpers';

// The production gpt model is an OpenAI-compatible one the admin adds at a loopback port, and no
// MODEL_FETCH_ALLOW names it (the test setup allows 127.0.0.1 for the fakes; production allows
// nothing by default). A table of its own (created by the setup), as the assessment's budget this
// file spends is everyone's. Set before the app reads its configuration (once, on first use).
vi.hoisted(() => {
  vi.stubEnv('TABLE_NAME', `hardening-http-${Date.now()}`);
  vi.stubEnv('AI_GPT_MODEL', 'openai-compatible/loopback-gpt');
  vi.stubEnv('OPENAI_COMPATIBLE_API_KEY', 'sk-loopback-key');
  vi.stubEnv('MODEL_FETCH_ALLOW', '');
});

const FORM = 'application/x-www-form-urlencoded';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const today = () => new Date().toISOString().slice(0, 10);

let server: LocalServer;
let adminCookie: string;
/** A model server on a local port: it counts every request and answers none usefully. */
let localPort: Server;
let reachedLocalPort = 0;
/** Ten visitors' connections, each from its own loopback address (127.0.{net}.1-10). */
const agents: Agent[] = [];
function visitors(net: number): Agent[] {
  const mine = Array.from(
    { length: 10 },
    (_, i) => new Agent({ keepAlive: true, localAddress: `127.0.${net}.${i + 1}` }),
  );
  agents.push(...mine);
  return mine;
}

beforeAll(async () => {
  localPort = createServer((_request, response) => {
    reachedLocalPort++;
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => localPort.listen(0, '127.0.0.1', resolve));
  [server, { cookie: adminCookie }] = await Promise.all([startLocalServer(), signedInAdmin()]);
}, 30_000);
afterAll(() => {
  server?.stop();
  localPort?.close();
  for (const agent of agents) agent.destroy();
});

/** A page as a browser fetches it, and the page-view token its head carries. */
async function servedToken(path: string): Promise<string> {
  const page = await send(server, { path, headers: { 'User-Agent': BROWSER } });
  expect(page.status, path).toBe(200);
  const token = /<div hidden="" data-page-view-token="([^"]+)"/.exec(page.body)?.[1];
  expect(token, path).toBeTruthy();
  return token!;
}

/** A beacon from this visitor, with an X-Forwarded-For the front door overwrites. */
const beacon = (body: unknown, from: Agent) =>
  send(server, {
    method: 'POST',
    path: '/api/events',
    agent: from,
    headers: {
      Origin: server.origin,
      'Content-Type': 'application/json',
      'User-Agent': BROWSER,
      'X-Forwarded-For': `198.51.100.${agents.indexOf(from) % 250}`,
    },
    body: JSON.stringify(body),
  });

/** The campaign's visits as the operator's figures show them, after a rollup of today. */
async function visitsOf(utm: string): Promise<number> {
  await CampaignAnalytics.rollUpDay(today());
  const [day] = await CampaignAnalytics.daysStored(today(), today(), { consistent: true });
  return Object.entries(day?.counts?.campaigns ?? {})
    .filter(([key]) => key.startsWith(`visit\t${utm}\t`))
    .reduce((sum, [, n]) => sum + n, 0);
}

const itemsToday = async () => (await Analytics.forDay(today())).length;

describe('item 3: 1,000 page-view beacons from 10 addresses', () => {
  it('without a served page add no item and no visit, each answered 400, none rate limited', async () => {
    const utm = `spring-launch-${ulid().toLowerCase().slice(-8)}`;
    const from = visitors(32);
    const token = await servedToken(`/?utm=${utm}`);
    expect((await beacon({ name: 'page_view', token }, from[0]!)).status).toBe(204);
    expect(await visitsOf(utm)).toBe(1);
    const itemsBefore = await itemsToday();

    // As the review sent them: no token (as beacons did before), or a forged or altered one.
    const [signed] = token.split('.');
    const bodies = Array.from({ length: 1000 }, (_, i) =>
      i % 3 === 0
        ? { name: 'page_view', path: '/', utm, vus: 'sp' }
        : { name: 'page_view', token: i % 3 === 1 ? `${signed}.${'A'.repeat(43)}` : ulid() },
    );
    const statuses: number[] = [];
    for (let start = 0; start < bodies.length; start += 50) {
      const batch = bodies.slice(start, start + 50);
      statuses.push(
        ...(await Promise.all(batch.map((body, i) => beacon(body, from[(start + i) % 10]!)))).map(
          (answer) => answer.status,
        ),
      );
    }

    expect(statuses.filter((status) => status === 400)).toHaveLength(1000);
    expect(await itemsToday()).toBe(itemsBefore);
    expect(await visitsOf(utm)).toBe(1);
  }, 60_000);

  it("with tokens of pages fetched count each page once, and the campaign's visits by those pages", async () => {
    const utm = `spring-launch-${ulid().toLowerCase().slice(-8)}`;
    const from = visitors(33);
    const itemsBefore = await itemsToday();
    // The attacker fetches four pages of the campaign and replays their tokens 1,000 times.
    const tokens = await Promise.all([1, 2, 3, 4].map(() => servedToken(`/?utm=${utm}`)));
    const statuses: number[] = [];
    for (let start = 0; start < 1000; start += 50) {
      const batch = Array.from({ length: 50 }, (_, i) => start + i);
      statuses.push(
        ...(
          await Promise.all(
            batch.map((n) => beacon({ name: 'page_view', token: tokens[n % 4] }, from[n % 10]!)),
          )
        ).map((answer) => answer.status),
      );
    }

    // A replay is answered like any view, so it learns nothing; it is not counted again.
    expect(statuses.filter((status) => status === 204)).toHaveLength(1000);
    expect((await itemsToday()) - itemsBefore).toBe(4);
    expect(await visitsOf(utm)).toBe(4);
  }, 60_000);
});

describe('item 4: a model the admin adds at a local port', () => {
  const EXPERIMENTS = '/admin-panel/experiments';
  const SCORE = '?process=descriptor-experiments&implementation=score-articles-per-descriptor';
  const adminPost = (path: string, form: Record<string, string>) =>
    send(server, {
      method: 'POST',
      path,
      headers: { Origin: server.origin, 'Content-Type': FORM, Cookie: adminCookie },
      body: new URLSearchParams(form).toString(),
    });
  let modelId: string;
  let refusal: string;

  beforeAll(async () => {
    const port = (localPort.address() as AddressInfo).port;
    refusal =
      'Refused: the model server 127.0.0.1 is on a private or local network; ' +
      `MODEL_FETCH_ALLOW must name 127.0.0.1:${port} to reach it`;
    const added = await adminPost(`${EXPERIMENTS}/models`, {
      intent: 'add',
      provider: 'openai-compatible',
      model: 'loopback-gpt',
      modelType: 'gpt',
      baseUrl: `http://127.0.0.1:${port}/v1`,
    });
    expect(added.status).toBe(200);
    expect(added.body).toContain('The AI model openai-compatible - loopback-gpt was added');
    modelId = Ai.aiModelId('openai-compatible', 'loopback-gpt');
  }, 30_000);

  it('runs an experiment without the port receiving a request, and the run says why it failed', async () => {
    const tag = ulid().toLowerCase();
    await createAudience({ title: `build DeFi protocols ${tag}`, tag: `aud-${tag}` });
    await createArticle({ title: `Aave adds isolated lending markets ${tag}` });
    const [dataset, prompt] = await Promise.all([
      Experiments.freezeDataset({
        name: `Descriptors ${tag}`,
        group: 'first_layer_descriptor',
        articles: 5,
        systemUserId: 'admin',
      }),
      Experiments.addPrompt({
        expImplementationId: 'score-articles-per-descriptor',
        title: `Plain ${tag}`,
        prompt: 'How relevant is {title} to a reader who {clues}?',
        systemUserId: 'admin',
      }),
    ]);

    const saved = await adminPost(`${EXPERIMENTS}${SCORE}&modal=add`, {
      intent: 'save',
      name: `Loopback ${tag}`,
      dataset: dataset.id,
      expGptModelId: modelId,
      expPromptId: prompt.id,
      articleLimit: '5',
    });
    expect(saved.status).toBe(302);
    const runId = new URL(saved.headers.location!, server.origin).searchParams.get('run')!;
    const executed = await adminPost(`${EXPERIMENTS}${SCORE}&run=${runId}`, {
      intent: 'execute',
      id: runId,
    });
    expect(executed.status).toBe(200);
    // The test plays the worker, which reads the same settings (no MODEL_FETCH_ALLOW): the job
    // plans its chunks, and a failed chunk's message comes back until its attempts are spent.
    const { processId } = (await Experiments.ExperimentRunEntity.get({ id: runId }).go()).data!;
    const { chunks } = await runToEnd(processId!, Worker.jobs);
    for (let attempt = 2; attempt <= Jobs.MAX_ATTEMPTS; attempt++)
      await Jobs.handleBatch(chunks, Worker.jobs);

    const shown = await send(server, {
      path: `${EXPERIMENTS}${SCORE}&run=${runId}`,
      headers: { Cookie: adminCookie },
    });
    expect(reachedLocalPort).toBe(0);
    expect(shown.status).toBe(200);
    // The run failed, and its page says why in words, for every chunk it planned.
    expect(shown.body).toMatch(/<dt>Status<\/dt><dd><span [^>]*>Failed<\/span><\/dd>/);
    const words = refusal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(shown.body).toMatch(
      new RegExp(`role="alert">(\\d+) of \\1 chunks failed: ${words}</p>`),
    );
  }, 60_000);

  it("is refused inside a request too (Content Automations' assessment), with no request to the port", async () => {
    let assessed!: Awaited<ReturnType<typeof send>>;
    const { lines } = await logsDuring(async () => {
      assessed = await adminPost('/admin-panel/audience-name-assessment', {
        prefix: 'I am one of those who',
        audienceName: `build lending protocols ${ulid().toLowerCase().slice(-8)}`,
      });
    });
    expect(reachedLocalPort).toBe(0);
    // The call was made and refused for the address, not for anything else.
    expect(lines).toContainEqual(
      expect.objectContaining({
        message: 'Audience name assessment failed',
        error: expect.objectContaining({ name: 'AiNotConfigured', message: refusal }),
      }),
    );
    expect([assessed.status, JSON.parse(assessed.body)]).toEqual([
      503,
      { error: ASSESSMENT_MESSAGES.unavailable },
    ]);
  }, 30_000);
});

describe('item 5: the small ones', () => {
  it('sends a stranger who GETs the POST-only invitation preview to sign in, not a 400', async () => {
    const path = '/admin-panel/user-management/preview';
    const answer = await send(server, { path });
    expect([answer.status, answer.headers.location]).toEqual([
      302,
      `/admin-panel/authorize?${new URLSearchParams({ returnUrl: path })}`,
    ]);
  });

  it("answers the public assessment 429 with its message once every address's budget is spent", async () => {
    // Spent as other visitors' calls spend it (300 model calls in the window at the production
    // factor): counted in the app's own store, which the built app reads.
    const budget = PUBLIC_BUDGET.max * config().RATE_LIMIT_FACTOR;
    const windowMs = PUBLIC_BUDGET.windowSeconds * 1000;
    // Far enough from the window's end that spending and asking fall in the same window.
    const left = windowMs - (Date.now() % windowMs);
    if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    for (let spent = 0; spent < budget; spent += 50) {
      const batch = Array.from({ length: Math.min(50, budget - spent) }, () =>
        RateLimit.attempt(PUBLIC_BUDGET, 'all'),
      );
      await Promise.all(batch);
    }
    const reachedBefore = reachedLocalPort;

    const answer = await send(server, {
      method: 'POST',
      path: '/api/audience-name-assessment',
      headers: { Origin: server.origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        prefix: 'I am one of those who',
        clue: `build DeFi lending protocols ${ulid().toLowerCase().slice(-8)}`,
      }),
    });

    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'assessment.busy', message: ASSESSMENT_MESSAGES.busy },
    });
    expect(answer.headers['retry-after']).toBe('60');
    expect(reachedLocalPort).toBe(reachedBefore);
  }, 60_000);
});
