import { describe, expect, it } from 'vitest';
import * as Stories from '#core/stories';
import { clusterByVectors } from './stories';

const article = (id: string, publishedAt: string) => ({
  id,
  title: `Title ${id}`,
  summary: `Summary ${id}`,
  publishedAt,
});

describe("The workbench's story clustering", () => {
  it('groups as the production builder does: alike vectors in the story window, newest named first', () => {
    const items = [
      article('a', '2026-11-20T08:00:00.000Z'),
      article('b', '2026-11-20T12:00:00.000Z'),
      // The same event's words, but past the window of the others.
      article(
        'c',
        new Date(
          Date.parse('2026-11-20T12:00:00.000Z') + (Stories.STORY_WINDOW_HOURS + 1) * 3_600_000,
        ).toISOString(),
      ),
      article('d', '2026-11-20T09:00:00.000Z'),
    ];
    const vectors = [
      [1, 0, 0],
      [0.9, 0.1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ];
    expect(
      clusterByVectors(items, vectors, 0.8).map((story) => [story.id, story.articleIds]),
    ).toEqual([
      ['story-c', ['c']],
      ['story-b', ['b', 'a']],
      ['story-d', ['d']],
    ]);
  });
});
