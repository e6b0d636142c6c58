// What composing a digest reads. One issue's subscribers share their audiences' picks and posts,
// so a chunk composes with `sharedReads()`: each audience, pick list, post and article is read
// once per chunk instead of once per subscriber. What a subscriber was sent is theirs alone and is
// read afresh every time: the send conditions on it.
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Curation from '#core/curation';
import * as Posts from '#core/posts';
import * as Stories from '#core/stories';
import { sentStoriesOf, type SentStories } from './sent-stories';

type Window = { from: string; to: string; limit: number };

export type DigestReads = {
  audiences(ids: readonly string[]): Promise<Audiences.Audience[]>;
  picks(audienceId: string, window: Window): Promise<Curation.Pick[]>;
  posts(ids: readonly string[]): Promise<Posts.Post[]>;
  articles(ids: readonly string[]): Promise<Articles.Article[]>;
  /** Each article's story, by article id. */
  stories(articles: readonly Articles.Article[]): Promise<Map<string, Stories.Story>>;
  sentStories(subscriberId: string): Promise<SentStories>;
};

export const directReads: DigestReads = {
  audiences: Audiences.byIds,
  picks: Curation.picksForAudience,
  posts: Posts.byIds,
  articles: Articles.byIds,
  stories: Stories.ofArticles,
  sentStories: sentStoriesOf,
};

/** Reads by id, each id read once: the first caller's read is every later caller's answer. */
function byIdOnce<T extends object>(
  read: (ids: readonly string[]) => Promise<T[]>,
  idOf: (item: T) => string,
) {
  const found = new Map<string, Promise<T | undefined>>();
  return async (ids: readonly string[]): Promise<T[]> => {
    const missing = [...new Set(ids)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      const batch = read(missing).then((items) => new Map(items.map((item) => [idOf(item), item])));
      for (const id of missing)
        found.set(
          id,
          batch.then((items) => items.get(id)),
        );
    }
    const items: (T | undefined)[] = await Promise.all(ids.map((id) => found.get(id)!));
    return items.filter((item): item is T => item !== undefined);
  };
}

/**
 * Reads shared by the digests of one chunk (one issue, one window). `sent`: the chunk's
 * subscribers' sent stories, read together; each is used once, and composing again reads afresh.
 */
export function sharedReads(sent = new Map<string, SentStories>()): DigestReads {
  const picks = new Map<string, Promise<Curation.Pick[]>>();
  return {
    audiences: byIdOnce(Audiences.byIds, (audience) => audience.id),
    picks(audienceId, window) {
      const key = `${audienceId}|${window.from}|${window.to}|${window.limit}`;
      if (!picks.has(key)) picks.set(key, Curation.picksForAudience(audienceId, window));
      return picks.get(key)!;
    },
    posts: byIdOnce(Posts.byIds, (post) => post.id),
    articles: byIdOnce(Articles.byIds, (article) => article.id),
    stories: storiesOnce(),
    async sentStories(subscriberId) {
      const read = sent.get(subscriberId);
      sent.delete(subscriberId);
      return read ?? sentStoriesOf(subscriberId);
    },
  };
}

/** Stories by article, each article's looked up once per chunk. */
function storiesOnce() {
  const found = new Map<string, Promise<Stories.Story | undefined>>();
  return async (articles: readonly Articles.Article[]) => {
    const missing = articles.filter((article) => !found.has(article.id));
    if (missing.length > 0) {
      const batch = Stories.ofArticles(missing);
      for (const article of missing)
        found.set(
          article.id,
          batch.then((stories) => stories.get(article.id)),
        );
    }
    const stories = new Map<string, Stories.Story>();
    for (const article of articles) {
      const story = await found.get(article.id)!;
      if (story) stories.set(article.id, story);
    }
    return stories;
  };
}
