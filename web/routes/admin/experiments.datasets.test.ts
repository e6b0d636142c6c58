// Experiment datasets: only for admins, a freeze queued as a job that freezes the dataset, and
// every bad input refused with its message and a 4xx.
import { describe, expect, it } from 'vitest';
import * as Worker from '#core/worker';
import { config } from '#core/config';
import * as Experiments from '#core/experiments';
import * as Jobs from '#core/jobs';
import { createArticle } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { call, type Answer } from '#tests/integration/route-call';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { action, loader } from './experiments.datasets';
import { loader as experimentsLoader } from './experiments';
import type { ExperimentsPage } from './experiments.server';

// Its own table: what it freezes is exactly the articles it creates.
useOwnTable('experiment-datasets');

const PATH = '/admin-panel/experiments/datasets';
const origin = () => new URL(config().PUBLIC_URL).origin;

/** The action's answer to the signed-in admin's form, as Remix would send it. */
async function post(form: Record<string, string>): Promise<Answer> {
  const { cookie } = await signedInAdmin();
  return call(action, adminPost(PATH, form, cookie));
}

describe('experiment datasets', () => {
  it('sends a visitor without a session to sign-in', async () => {
    expect(await call(loader, new Request(new URL(PATH, origin())))).toMatchObject({
      status: 302,
      location: `/admin-panel/authorize?returnUrl=${encodeURIComponent(PATH)}`,
    });
  });

  it('refuses bad input with the message and a 400, and keeps what was typed', async () => {
    for (const [form, message] of [
      [{ intent: 'freeze', name: ' ', group: 'pipeline', articles: '10' }, 'Please add a name'],
      [
        { intent: 'freeze', name: 'X', group: 'nope', articles: '10' },
        'Please choose a dataset group',
      ],
      [
        { intent: 'freeze', name: 'X', group: 'pipeline', articles: '201' },
        'Please choose between 1 and 200 articles',
      ],
      [
        { intent: 'freeze', name: 'X', group: 'pipeline', articles: 'many' },
        'Please choose between 1 and 200 articles',
      ],
      [{ intent: 'other', name: 'X', group: 'pipeline' }, 'This action is not known'],
    ] as const) {
      const answer = await post(form);
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ error: message, typed: { name: form.name } });
    }
  });

  it('queues a freeze; the job freezes the dataset, which the page then lists', async () => {
    for (let i = 0; i < 5; i++) {
      await createArticle({
        title: `Validators vote on fee change ${i}`,
        publishedAt: '2026-11-26T08:00:00.000Z',
      });
    }
    const name = `Frozen ${Date.now()}`;
    const answer = await post({ intent: 'freeze', name, group: 'content_layer', articles: '5' });
    expect(answer).toMatchObject({ status: 200, data: { toast: `Freezing the dataset ${name}` } });
    const process = (await Jobs.active()).find((p) => p.name === 'experiment-dataset-freeze')!;
    expect(process).toBeDefined();
    expect((await runToEnd(process.id, Worker.jobs)).ended.status).toBe('Success');
    const { cookie } = await signedInAdmin();
    const page = await loader({
      request: new Request(new URL(PATH, origin()), { headers: { cookie } }),
      params: {},
      context: {},
    });
    const frozen = page.datasets.find((dataset) => dataset.name === name)!;
    expect(frozen).toMatchObject({ group: 'content_layer', articles: 5 });
    expect((await Experiments.thaw(frozen.id)).articles).toHaveLength(5);
  });

  it('lists a dataset frozen twice under one name once, its newest copy, in the page and in the run form', async () => {
    await createArticle({
      title: 'Rollup fees fall again',
      publishedAt: '2026-11-27T08:00:00.000Z',
    });
    const name = `Twice ${Date.now()}`;
    const older = await Experiments.freezeDataset({
      name,
      group: 'first_layer_descriptor',
      articles: 1,
      systemUserId: 'admin',
    });
    const newer = await Experiments.freezeDataset({
      name,
      group: 'first_layer_descriptor',
      articles: 1,
      systemUserId: 'admin',
    });
    expect(newer.createdAt >= older.createdAt).toBe(true);
    const { cookie } = await signedInAdmin();
    const page = await loader({
      request: new Request(new URL(PATH, origin()), { headers: { cookie } }),
      params: {},
      context: {},
    });
    const listed = page.datasets.filter((dataset) => dataset.name === name);
    expect(listed.map(({ id, groupLabel }) => ({ id, groupLabel }))).toEqual([
      { id: newer.id, groupLabel: 'Audiences' },
    ]);

    const form = await call(
      experimentsLoader,
      new Request(
        new URL(
          '/admin-panel/experiments?process=descriptor-experiments&implementation=score-articles-per-descriptor&modal=add',
          origin(),
        ),
        { headers: { cookie } },
      ),
    );
    const options = (form.data as ExperimentsPage).options!;
    expect(options.datasets.filter((dataset) => dataset.name.startsWith(name))).toEqual([
      { id: newer.id, name: `${name} (Audiences)` },
    ]);
    expect(options.thresholdWords).toMatch(/^It does not change the labels/);
  });
});
