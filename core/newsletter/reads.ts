// What composing a digest reads. One issue's subscribers share their audiences' picks and posts,
// so a chunk composes with `sharedReads()`: each audience, pick list, post and article is read
// once per chunk instead of once per subscriber.
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Curation from '#core/curation';
import * as Posts from '#core/posts';

type Window = { from: string; to: string; limit: number };

export type DigestReads = {
  audiences(ids: readonly string[]): Promise<Audiences.Audience[]>;
  picks(audienceId: string, window: Window): Promise<Curation.Pick[]>;
  posts(ids: readonly string[]): Promise<Posts.Post[]>;
  articles(ids: readonly string[]): Promise<Articles.Article[]>;
};

export const directReads: DigestReads = {
  audiences: Audiences.byIds,
  picks: Curation.picksForAudience,
  posts: Posts.byIds,
  articles: Articles.byIds,
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

/** Reads shared by the digests of one chunk (one issue, one window). */
export function sharedReads(): DigestReads {
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
  };
}
