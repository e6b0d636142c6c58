import { describe, expect, it } from 'vitest';
import { processesChanged, type ProcessView } from './processes';

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
