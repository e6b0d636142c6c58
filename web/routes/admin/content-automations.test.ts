import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Automations from '#core/automations';
import * as Jobs from '#core/jobs';
import * as Streams from '#core/streams';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { receive } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { call } from '#tests/integration/route-call';
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
    await Jobs.handleBatch(await receive(queued!.id), Automations.jobs);
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
