import { describe, expect, it } from 'vitest';
import type { Process } from '#core/jobs';
import { processesChanged, processView, type ProcessView } from './processes';

const process = (id: string, status: ProcessView['status'], progress = 0): ProcessView => ({
  id,
  name: 'import-articles',
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
    expect(view).not.toHaveProperty('input');
    expect(view).not.toHaveProperty('systemUserId');
  });
});
