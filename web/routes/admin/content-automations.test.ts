import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Ai from '#core/ai';
import * as Auth from '#core/auth';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import * as Streams from '#core/streams';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { receive } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { call, changes, request, storedItems } from '#tests/integration/route-call';
import { action, loader } from './content-automations';

useOwnTable('content-automations');

type Answer = { data: { error?: string; message?: string }; init: { status?: number } | null };

async function post(form: Record<string, string>): Promise<Answer> {
  const { cookie } = await signedInAdmin();
  const request = adminPost('/admin-panel/content-automations', form, cookie);
  return (await action({ request, params: {}, context: {} })) as unknown as Answer;
}

const addStream = (streamName: string, streamUrl: string) =>
  post({ intent: 'add-stream', streamName, streamUrl });

describe('add stream and import articles', () => {
  it('refuses a feed URL already added, naming its stream, and queues nothing', async () => {
    const host = `feeds-${ulid().toLowerCase()}.example`;
    const existing = await Streams.create({ name: 'Blocknotes', url: `https://${host}/rss` });
    const lastRun = await Jobs.lastRun(Automations.addStreamAndImport.name);

    const answer = await addStream('A new name', `https://${host}/rss/?utm_source=x`);

    expect(answer.init?.status).toBe(409);
    expect(answer.data).toEqual({ error: 'This feed URL is already added as "Blocknotes"' });
    expect((await Streams.list()).filter((stream) => stream.url.includes(host))).toEqual([
      existing,
    ]);
    expect((await Jobs.lastRun(Automations.addStreamAndImport.name))?.id).toBe(lastRun?.id);
  });

  it('explains a bad feed URL with a 400', async () => {
    const answer = await addStream('Broken', 'ftp://example.org/feed');
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toEqual({ error: 'Please add a valid feed URL' });
  });
});

describe('audience matching and prompt testing', () => {
  it('answer the spec messages without an audience, or with one that does not exist, and queue nothing', async () => {
    for (const [intent, job, message] of [
      [
        'audience-matching',
        Automations.audienceMatching,
        'Audience matching error: Please select an audience',
      ],
      [
        'prompt-testing',
        Automations.promptTesting,
        'Prompt testing error: Please select an audience',
      ],
    ] as const) {
      const lastRun = await Jobs.lastRun(job.name);
      for (const audienceId of ['', '   ', ulid(), 'x'.repeat(500)]) {
        const answer = await post({ intent, audienceId });
        expect(answer.init?.status, intent).toBe(400);
        expect(answer.data).toEqual({ error: message });
      }
      expect((await post({ intent })).data).toEqual({ error: message });
      expect((await Jobs.lastRun(job.name))?.id).toBe(lastRun?.id);
    }
  });
});

describe('score articles experiment', () => {
  it('explains an article limit that is not a whole number from 1', async () => {
    for (const articleLimit of ['0', '-3', '2.5', 'many']) {
      const answer = await post({ intent: 'score-experiment', articleLimit });
      expect(answer.init?.status, articleLimit).toBe(400);
      expect(answer.data).toEqual({ error: 'Please add article limit' });
    }
  });
});

describe('score articles experiment above its limit', () => {
  it('explains an article limit over 500 in words, not a validator dump', async () => {
    for (const articleLimit of ['501', '1e3']) {
      const answer = await post({ intent: 'score-experiment', articleLimit });
      expect(answer.init?.status, articleLimit).toBe(400);
      expect(answer.data.error, articleLimit).not.toMatch(/Invalid|Expected|received/);
      expect(answer.data.error, articleLimit).toContain('500');
    }
  });
});

describe('send newsletters', () => {
  it('queues a send of the chosen frequency with the spec message', async () => {
    const answer = await post({ intent: 'send-newsletters', frequency: 'weekly' });
    expect(answer).toEqual({ message: 'Successfully triggered send newsletters' });
    const queued = await Jobs.lastRun(Automations.sendNewsletters.name);
    expect(queued).toMatchObject({ status: 'Queued' });
    expect(JSON.parse(queued!.input)).toEqual({ frequency: 'weekly' });
    // Run it as the worker would (this file's table has no subscribers: nothing to send), so no
    // process is left queued in this test worker's queue for the jobs tests to meet.
    await Jobs.handleBatch(await receive(queued!.id), Worker.jobs);
    expect((await Jobs.byId(queued!.id))?.status).toBe('Success');
  });
});

describe('one stream: pause, resume, remove', () => {
  const streamAction = (intent: string, streamId: string) => post({ intent, streamId });

  it('pauses, resumes and removes a stream, each said in words, and refuses what cannot be done', async () => {
    const url = `https://feeds-${ulid().toLowerCase()}.example/rss`;
    const stream = await Streams.create({ name: 'Chainwire', url });

    expect(await streamAction('pause-stream', stream.id)).toEqual({
      message: 'Stream Chainwire paused: imports skip it until it is resumed',
    });
    expect((await Streams.byId(stream.id))?.pausedAt).toBeDefined();
    const again = await streamAction('pause-stream', stream.id);
    expect(again.init?.status).toBe(409);
    expect(again.data).toEqual({ error: 'This stream is already paused' });

    expect(await streamAction('resume-stream', stream.id)).toEqual({
      message: 'Stream Chainwire resumed: the next import fetches it',
    });
    expect((await Streams.byId(stream.id))?.pausedAt).toBeUndefined();

    expect(await streamAction('remove-stream', stream.id)).toEqual({
      message: 'Stream Chainwire removed; the articles it brought stay',
    });
    expect(await Streams.byUrl(url)).toBeUndefined();
    const gone = await streamAction('remove-stream', stream.id);
    expect(gone.init?.status).toBe(404);
    expect(gone.data).toEqual({ error: 'This stream no longer exists' });
  });

  it('asks before removing: ?remove={id} gives the stream to confirm, anything else nothing', async () => {
    const stream = await Streams.create({
      name: 'Blocknotes',
      url: `https://feeds-${ulid().toLowerCase()}.example/rss`,
    });
    const { cookie } = await signedInAdmin();
    const page = async (query: string) => {
      const answer = await call(
        loader,
        new Request(`http://localhost:3000/admin-panel/content-automations${query}`, {
          headers: { Cookie: cookie },
        }),
      );
      expect(answer.status).toBe(200);
      return answer.data as Awaited<ReturnType<typeof loader>>;
    };
    expect((await page(`?remove=${stream.id}`)).removing).toMatchObject({
      id: stream.id,
      name: 'Blocknotes',
      url: stream.url,
    });
    for (const query of ['', `?remove=${ulid()}`, '?remove=../x', `?remove=${'x'.repeat(500)}`])
      expect((await page(query)).removing, query).toBeUndefined();
    // Showing the question changes nothing.
    expect(await Streams.byId(stream.id)).toEqual(stream);
  });

  it('answers an unknown action in words, without a code', async () => {
    const answer = await post({ intent: 'nonsense' });
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toEqual({ error: 'This action is not known' });
  });
});

describe('promote a production scoring setup', () => {
  const PATH = '/admin-panel/content-automations';
  const page = async (cookie: string, query = '') => {
    const answer = await call(
      loader,
      new Request(`http://localhost:3000${PATH}${query}`, { headers: { Cookie: cookie } }),
    );
    expect(answer.status).toBe(200);
    return answer.data as Awaited<ReturnType<typeof loader>>;
  };
  /** Storage as a refused promote must leave it: admins' sessions and sign-in counters aside. */
  const stored = () =>
    storedItems((pk) =>
      ['rateLimit#', 'logs#', 'session#', 'systemUser'].some((prefix) => pk.startsWith(prefix)),
    );

  it('says why production cannot score when the configured model is not among the AI models, instead of failing the page', async () => {
    const settings = config() as { AI_GPT_MODEL: string };
    const configured = settings.AI_GPT_MODEL;
    settings.AI_GPT_MODEL = 'openai/gpt-unknown';
    try {
      const { cookie } = await signedInAdmin();
      expect((await page(cookie)).production).toEqual({
        revision: 0,
        problem: 'The gpt model openai/gpt-unknown is not among the AI models; add it first',
      });
    } finally {
      settings.AI_GPT_MODEL = configured;
    }
  });

  it('shows the setup and asks before promoting; the answer promotes, queues scoring and says so', async () => {
    await Prompts.seedDefaults();
    const local = (await Ai.byId('local:cluefeed-bm25')) ?? (await Ai.create(Ai.LOCAL_MODELS.gpt));
    const saved = await Prompts.create({
      expImplementationId: 'scoring',
      title: 'Sharper',
      prompt: 'Sharper: {title} for {clues}',
    });
    const { cookie, user } = await signedInAdmin();

    const before = await page(cookie);
    expect(before.production).toEqual({
      revision: 0,
      prompt: { id: 'default-scoring', title: Prompts.builtIn('scoring').title },
      model: { id: local.id, name: 'local - cluefeed-bm25' },
    });
    expect(before.choices.prompts.map(({ id }) => id)).toEqual([saved.id, 'default-scoring']);
    expect(before.promoting).toBeUndefined();

    const asking = await page(cookie, `?promotePrompt=${saved.id}&promoteModel=${local.id}`);
    expect(asking.promoting).toMatchObject({
      prompt: { id: saved.id, title: 'Sharper' },
      model: { id: local.id, name: 'local - cluefeed-bm25' },
      same: false,
    });
    for (const query of [
      `?promotePrompt=${ulid()}&promoteModel=${local.id}`,
      `?promotePrompt=${saved.id}`,
    ])
      expect((await page(cookie, query)).promoting, query).toBeUndefined();
    // Asking changes nothing.
    expect((await Scoring.productionSetup()).prompt.id).toBe('default-scoring');

    const answer = (await action({
      request: adminPost(
        PATH,
        { intent: 'promote-scoring', promptId: saved.id, modelId: local.id, revision: '0' },
        cookie,
      ),
      params: {},
      context: {},
    })) as unknown as Answer;
    expect(answer).toEqual({
      message:
        'Production scoring now uses "Sharper" with local - cluefeed-bm25. Scoring the newest articles with it is queued.',
    });
    const after = await page(cookie);
    expect(after.production).toMatchObject({
      revision: 1,
      prompt: { id: saved.id, title: 'Sharper' },
      promotedBy: user.userName,
    });
    const queued = (await Jobs.lastRun(Automations.scoreArticles.name))!;
    expect(queued.status).toBe('Queued');
    // Run it as the worker would, so nothing is left on this test worker's queue.
    await Jobs.handleBatch(await receive(queued.id), Worker.jobs);
    await Promise.all(
      (await receive(queued.id)).map((message) => Jobs.handleBatch([message], Worker.jobs)),
    );
    expect((await Jobs.byId(queued.id))?.status).toBe('Success');

    // The same page again: production changed since it was loaded.
    const stale = await post({
      intent: 'promote-scoring',
      promptId: 'default-scoring',
      modelId: local.id,
      revision: '0',
    });
    expect(stale.init?.status).toBe(409);
    expect(stale.data.error).toBe(
      'Production scoring changed meanwhile: it now uses "Sharper" with local - cluefeed-bm25. Look at it again before you promote.',
    );
  });

  it('offers only gpt models that can run, says why the others cannot, and refuses promoting one', async () => {
    const settings = config() as { OPENAI_API_KEY?: string };
    const key = settings.OPENAI_API_KEY;
    delete settings.OPENAI_API_KEY;
    try {
      await Prompts.seedDefaults();
      const openai =
        (await Ai.byId('openai:gpt-4o-mini')) ??
        (await Ai.create({ provider: 'openai', model: 'gpt-4o-mini', modelType: 'gpt' }));
      const { cookie } = await signedInAdmin();
      const { choices } = await page(cookie);
      expect(choices.models.map(({ id }) => id)).not.toContain(openai.id);
      expect(choices.notOffered).toEqual([
        'openai - gpt-4o-mini: OPENAI_API_KEY is not set, so OpenAI models cannot run',
      ]);
      const before = await stored();
      const answer = await post({
        intent: 'promote-scoring',
        promptId: 'default-scoring',
        modelId: openai.id,
      });
      expect(answer.init?.status).toBe(400);
      expect(answer.data).toEqual({
        error:
          'openai - gpt-4o-mini cannot score here: OPENAI_API_KEY is not set, so OpenAI models cannot run',
      });
      expect(changes(before, await stored())).toEqual([]);
    } finally {
      if (key !== undefined) settings.OPENAI_API_KEY = key;
    }
  });

  it('answers a bad choice with a 4xx in words, and stores nothing', async () => {
    const local = (await Ai.byId('local:cluefeed-bm25')) ?? (await Ai.create(Ai.LOCAL_MODELS.gpt));
    const embeddings =
      (await Ai.byId('local:cluefeed-hashed-256')) ?? (await Ai.create(Ai.LOCAL_MODELS.embeddings));
    const { revision } = await Scoring.productionSetup();
    const before = await stored();
    for (const [form, status, error] of [
      [{ promptId: ulid(), modelId: local.id }, 400, Scoring.PRODUCTION_MESSAGES.prompt],
      [{ modelId: local.id }, 400, Scoring.PRODUCTION_MESSAGES.prompt],
      [
        { promptId: 'default-scoring', modelId: embeddings.id },
        400,
        Scoring.PRODUCTION_MESSAGES.model,
      ],
      [
        { promptId: 'default-scoring', modelId: 'x'.repeat(1000) },
        400,
        Scoring.PRODUCTION_MESSAGES.model,
      ],
      [
        { promptId: 'default-scoring', modelId: local.id, revision: 'many' },
        400,
        Scoring.PRODUCTION_MESSAGES.stale,
      ],
      [
        { promptId: 'default-scoring', modelId: local.id, revision: String(revision + 5) },
        409,
        undefined,
      ],
    ] as const) {
      const answer = await post({ intent: 'promote-scoring', ...form });
      expect(answer.init?.status, JSON.stringify(form)).toBe(status);
      if (error) expect(answer.data).toEqual({ error });
      else expect(answer.data.error).toMatch(/^Production scoring changed meanwhile/);
    }
    expect(changes(before, await stored())).toEqual([]);
  });

  it('is for admins only: no session, or an admin no longer one, is sent to sign in and promotes nothing', async () => {
    const saved = await Prompts.create({
      expImplementationId: 'scoring',
      title: 'Unseen',
      prompt: 'Unseen: {title} for {clues}',
    });
    const form = { intent: 'promote-scoring', promptId: saved.id, modelId: 'local:cluefeed-bm25' };
    const origin = 'http://localhost:3000';
    const before = await stored();

    const anonymous = await call(
      action,
      request(`${origin}${PATH}`, {
        method: 'POST',
        body: new URLSearchParams(form).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      }),
    );
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/admin-panel\/authorize/);

    const { cookie, user } = await signedInAdmin();
    await Auth.SystemUserEntity.patch({ id: user.id }).set({ role: Auth.ROLES.USER }).go();
    const demoted = await call(action, adminPost(PATH, form, cookie));
    expect(demoted.status).toBe(302);
    expect(demoted.location).toMatch(/^\/admin-panel\/authorize/);

    expect(changes(before, await stored())).toEqual([]);
    expect((await Scoring.productionSetup()).prompt.id).not.toBe(saved.id);
  });
});
