import { describe, expect, it } from 'vitest';
import { otherOutlets, otherSources, type Story, type StorySource } from './index';

function member(articleId: string, source: string, link = `https://${articleId}.example/`) {
  return { articleId, source, link, title: `${source} on it`, publishedAt: '2026-11-20T08:00:00Z' };
}

function storyOf(sources: StorySource[]): Story {
  return {
    id: 'story',
    headline: 'A bridge drained',
    summary: '',
    sources,
    sourceCount: sources.length,
    firstAt: '2026-11-20T08:00:00Z',
    latestAt: '2026-11-20T08:00:00Z',
    revision: sources.length,
  };
}

describe('otherOutlets', () => {
  // Newest first, as a story keeps them.
  const story = storyOf([
    member('a4', 'The Defiant'),
    member('a3', 'CoinDesk'),
    member('a2', 'CoinDesk'),
    member('a1', 'The Defiant'),
  ]);

  it("counts outlets, not articles: the shown article's outlet and its follow-ups are not others", () => {
    expect(otherOutlets(story, 'a1').map((other) => other.articleId)).toEqual(['a3']);
    expect(otherOutlets(story, 'a2').map((other) => other.articleId)).toEqual(['a4']);
  });

  it('names each other outlet once, by its newest article', () => {
    const three = storyOf([...story.sources, member('a0', 'Decrypt')]);
    expect(otherOutlets(three, 'a1').map((other) => other.articleId)).toEqual(['a3', 'a0']);
  });

  it('has none for a story told by one outlet only', () => {
    const one = storyOf([member('b2', 'The Block'), member('b1', 'The Block')]);
    expect(otherOutlets(one, 'b1')).toEqual([]);
  });

  it('links only the outlets whose link is a web page', () => {
    const withMail = storyOf([
      member('c2', 'Newsletter', 'mailto:desk@example.org'),
      member('c1', 'CoinDesk'),
    ]);
    expect(otherOutlets(withMail, 'c1')).toHaveLength(1);
    expect(otherSources(withMail, 'c1')).toEqual([]);
  });
});
