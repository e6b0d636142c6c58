import { describe, expect, it } from 'vitest';
import { formatSpan, formatTime } from './format';

describe('formatTime', () => {
  it('writes a moment as day, short month, year and time, in UTC, saying so', () => {
    expect(formatTime('2026-01-03T14:05:09.123Z')).toBe('3 Jan 2026, 14:05 UTC');
    expect(formatTime('2026-11-23T00:00:00.000Z')).toBe('23 Nov 2026, 00:00 UTC');
    // A time written with an offset is the same moment, written in UTC.
    expect(formatTime('2026-12-31T23:30:00-02:00')).toBe('1 Jan 2027, 01:30 UTC');
  });

  it('adds the second where a log line needs it', () => {
    expect(formatTime('2026-01-03T14:05:09.123Z', { seconds: true })).toBe(
      '3 Jan 2026, 14:05:09 UTC',
    );
  });

  it('leaves text that is no time as it is', () => {
    expect(formatTime('soon')).toBe('soon');
  });

  it('writes a span with both ends in the same format', () => {
    expect(formatSpan('2026-11-22T09:00:00.000Z', '2026-11-23T09:00:00.000Z')).toBe(
      '22 Nov 2026, 09:00 UTC – 23 Nov 2026, 09:00 UTC',
    );
  });
});
