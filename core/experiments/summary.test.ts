// A run's output fits one item whatever its texts' script: texts and lists are cut, counts stay.
import { describe, expect, it } from 'vitest';
import { fitted, OUTPUT_BYTES } from './summary';
import type { RunOutput, StepOutput } from './types';

const step = (texts: number, chars: number): StepOutput => ({
  implementation: 'Story PreProcessing per Cluster',
  kind: 'preprocess',
  resultsPerMatchingEntity: [
    {
      matchingEntity: 'All stories',
      groupByMetricPerMatchingEntity: { Written: texts, Total: texts },
    },
  ],
  texts: Array.from({ length: texts }, (_, index) => ({
    storyId: `story-${index}`,
    title: `故事 ${index}`,
    text: '链上治理投票'.repeat(Math.ceil(chars / 6)).slice(0, chars),
  })),
  usage: { calls: texts, inputTokens: 1, outputTokens: 1, costUsd: 0 },
  prompt: { id: 'p', title: 'Prompt', prompt: 'Write one story from {articles}' },
  model: { id: 'local:cluefeed-bm25', name: 'local - cluefeed-bm25' },
  items: texts,
});

const output = (...steps: StepOutput[]): RunOutput => ({
  ...steps.at(-1)!,
  ...(steps.length > 1 && { steps }),
  durationMs: 1,
  dataset: { id: 'd', name: 'Everything', group: 'pipeline' },
});

describe('a run output', () => {
  it('is kept whole when it fits', () => {
    const small = output(step(3, 100));
    expect(fitted(small)).toEqual(small);
  });

  it('is cut to fit one item: 200 Chinese texts of 1,500 characters in a two-step chain', () => {
    const big = output(step(200, 1_500), step(200, 1_500));
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(400_000);
    const kept = fitted(big);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(OUTPUT_BYTES);
    expect(kept.resultsPerMatchingEntity).toEqual(big.resultsPerMatchingEntity);
    expect(kept.items).toBe(200);
    expect(kept.texts!.length).toBeGreaterThan(0);
    expect(kept.steps).toHaveLength(2);
  });
});
