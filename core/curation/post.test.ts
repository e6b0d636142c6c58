import { describe, expect, it } from 'vitest';
import type { Article } from '#core/articles';
import { pickedPost } from './post';

const article: Article = {
  id: '01JTEST',
  canonicalUrl: 'https://talks.example/first-amm-hook-live',
  title: 'Building your first AMM hook, live',
  summary: 'A live session that builds a dynamic-fee hook.',
  content: '',
  publishedAt: '2026-11-20T08:00:00.000Z',
  importedAt: '2026-11-20T08:00:00.000Z',
  source: 'Talks',
  streamId: 's1',
  fingerprint: 'f'.repeat(64),
};
const picked = { at: '2026-11-20T09:00:00.000Z', reason: 'It is about hooks.' };

describe('the picked post of an article', () => {
  it('is a video or episode that plays for the minutes its feed gave', () => {
    const video = { ...article, mediaType: 'video' as const, durationSeconds: 35 * 60 + 1 };
    expect(pickedPost('01JPOST', 'aud', video, picked)).toMatchObject({
      type: 'video',
      minutes: 36,
    });
    expect(pickedPost('01JPOST', 'aud', { ...article, mediaType: 'audio' }, picked)).toMatchObject({
      type: 'audio',
      minutes: 1,
    });
  });

  it('is an article read in the minutes its words take', () => {
    const long = { ...article, content: `<p>${'word '.repeat(700)}</p>` };
    expect(pickedPost('01JPOST', 'aud', long, picked)).toMatchObject({
      type: 'article',
      minutes: 4,
    });
  });
});
