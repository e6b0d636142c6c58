import { describe, expect, it } from 'vitest';
import * as Worker from '#core/worker';
import type { Process } from '#core/jobs';
import { processesChanged, type ProcessView } from './processes';
import { processView } from './processes.server';

const process = (id: string, status: ProcessView['status'], progress = 0): ProcessView => ({
  id,
  name: 'import-articles',
  title: 'Importing articles',
  priority: 0,
  status,
  createdAt: '2026-11-23T10:00:00.000Z',
  progress,
});

describe('processesChanged', () => {
  it('sees a process end, start or move on, whatever the order', () => {
    const running = process('a', 'Running');
    expect(processesChanged([running], [])).toBe(true);
    expect(processesChanged([], [running])).toBe(true);
    expect(processesChanged([process('a', 'Queued')], [running])).toBe(true);
    expect(
      processesChanged([running, process('b', 'Queued')], [process('b', 'Queued'), running]),
    ).toBe(false);
  });

  it('ignores progress, which the notice shows without reloading the page', () => {
    expect(processesChanged([process('a', 'Running', 0.1)], [process('a', 'Running', 0.9)])).toBe(
      false,
    );
  });
});

const running = (name: string): Process => ({
  id: 'p2',
  name,
  priority: 0,
  status: 'Running',
  input: '{}',
  systemUserId: 'admin-1',
  createdAt: '2026-11-23T10:00:00.000Z',
});

describe('processView', () => {
  it("shows a chunked run's chunk counts and keeps the process's input private", () => {
    const running: Process = {
      id: 'p1',
      name: 'score-articles',
      priority: 0,
      status: 'Running',
      input: '{"secret":"not for the page"}',
      systemUserId: 'admin-1',
      createdAt: '2026-11-23T10:00:00.000Z',
      progress: 0.3,
      progressNote: '3 of 10 chunks',
      chunksTotal: 10,
      chunksDone: 3,
      chunksFailed: 0,
    };
    const view = processView(running);
    expect(view).toMatchObject({ chunksTotal: 10, chunksDone: 3, chunksFailed: 0 });
    expect(view.title).toBe('Scoring articles');
    expect(view).not.toHaveProperty('input');
    expect(view).not.toHaveProperty('systemUserId');
  });
});

describe('a run whose worker went silent', () => {
  it('says since when it waits for its worker and when the run starts again', () => {
    const heard = new Date(Date.now() - 3 * 60_000).toISOString();
    const view = processView({
      ...running('score-articles'),
      status: 'Running',
      heartbeatAt: heard,
    });
    expect(view.silent).toEqual({
      since: heard,
      takenOverAt: new Date(Date.parse(heard) + 5 * 60_000).toISOString(),
    });
    const beating = { ...running('score-articles'), status: 'Running' as const };
    expect(
      processView({ ...beating, heartbeatAt: new Date().toISOString() }).silent,
    ).toBeUndefined();
  });
});

describe('job titles', () => {
  it('name every job in the product’s words, never by its name', () => {
    for (const job of Worker.jobs.values()) {
      expect(job.title, job.name).toMatch(/^[A-Z][a-z]+ [a-z]/);
      expect(job.title).not.toContain('-');
      expect(processView({ ...running(job.name) }).title).toBe(job.title);
    }
  });
});
