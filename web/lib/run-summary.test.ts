import { describe, expect, it } from 'vitest';
import { skippedBreakdown } from './campaign-view';
import { runSummary, type RunView } from './run-summary';

const run = (
  name: string,
  output: Record<string, unknown>,
  status: RunView['status'] = 'Success',
) =>
  ({
    id: 'p1',
    name,
    title: name,
    priority: 0,
    status,
    createdAt: '2026-11-23T10:00:00.000Z',
    output: JSON.stringify(output),
  }) satisfies RunView;

describe('runSummary', () => {
  it('tells what a scoring run did in sentences, in the product’s words', () => {
    expect(
      runSummary(
        run('score-articles', {
          scored: 276,
          alreadyScored: 12,
          failed: 0,
          calls: 28,
          chunks: 3,
          inputTokens: 1000,
          outputTokens: 234,
          costUsd: 0,
        }),
      ),
    ).toBe(
      '276 article–audience/reader pairs scored (12 already scored, none failed) with 28 model calls in 3 chunks. It used 1,234 tokens (1,000 in, 234 out), no cost.',
    );
  });

  it('says why a send skipped subscribers', () => {
    expect(
      runSummary(
        run('send-newsletters', {
          queued: 3,
          alreadyDone: 1,
          skipped: 2,
          skippedUnsubscribed: 2,
          failed: 0,
        }),
      ),
    ).toBe(
      '3 issues queued for delivery; 1 subscriber had it already, 2 skipped (unsubscribed), 0 failed.',
    );
  });

  it('counts the streams an import skipped because an operator paused them', () => {
    expect(
      runSummary(
        run('import-articles', {
          feeds: 5,
          imported: 2,
          notModified: 1,
          failed: 0,
          skipped: 1,
          paused: 1,
          newArticles: 7,
          duplicates: 3,
        }),
      ),
    ).toBe(
      '5 streams: 2 imported, 1 unchanged since the last import, 0 failed, 1 waiting after repeated failures, 1 paused. 7 new articles, 3 already stored.',
    );
  });

  it('says a failed run failed, with its error, and nothing while a run goes on', () => {
    expect(runSummary({ ...run('clear-table', {}, 'Failed'), error: 'Table busy' })).toBe(
      'It failed: Table busy',
    );
    expect(runSummary(run('clear-table', {}, 'Running'))).toBeUndefined();
  });
});

describe('skippedBreakdown', () => {
  it('gives the reason of every skip, with counts when there are several', () => {
    expect(skippedBreakdown({}, 0)).toBe('0');
    expect(skippedBreakdown({ skippedUnsubscribed: 2 }, 2)).toBe('2 (unsubscribed)');
    expect(skippedBreakdown({ skippedNotConfirmed: 1, skippedUnsubscribed: 2 }, 3)).toBe(
      '3 (1 not confirmed, 2 unsubscribed)',
    );
    // Skips counted before their reasons were.
    expect(skippedBreakdown({ skippedNoPicks: 1 }, 4)).toBe(
      '4 (1 nothing picked for them, 3 other)',
    );
    expect(skippedBreakdown({}, 4)).toBe('4');
  });
});
