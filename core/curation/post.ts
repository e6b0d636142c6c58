// The picked Post readers see for an article chosen for an audience: the article's title, its
// summary as the teaser, why it was picked and a link to the original, under the curator's name
// (ADR 0015).
import type { Article } from '#core/articles';
import { slugify } from '#core/common';
import type { PostInput } from '#core/posts';
import type * as v from 'valibot';
import { cut, plainText } from './text';

/** The author of every AI pick: the product itself, with its logo as the avatar. */
export const CURATOR = {
  name: 'Cluefeed Curator',
  handle: 'cluefeed',
  avatar: '/favicon.svg',
  tagLine: 'Stories picked by Cluefeed for this audience.',
  bio: 'Cluefeed reads the web3 press every day, scores each story against what an audience cares about and picks the few worth its time. The link goes to the original article.',
};

const WORDS_PER_MINUTE = 230;

/**
 * Time the original takes: a podcast's or video's running time when the feed gave it, else the
 * reading time of its content (or summary).
 */
function minutesOf(article: Article): number {
  if (article.mediaType && article.durationSeconds) {
    return Math.min(600, Math.max(1, Math.ceil(article.durationSeconds / 60)));
  }
  const words = plainText(article.content ?? article.summary ?? '')
    .split(' ')
    .filter(Boolean);
  return Math.min(600, Math.max(1, Math.ceil(words.length / WORDS_PER_MINUTE)));
}

export function pickedPost(
  postId: string,
  audienceId: string,
  article: Article,
  picked: { at: string; reason: string },
): v.InferInput<typeof PostInput> {
  // The score's reason says why the story suits the audience; readers see it with the story.
  const reason = cut(picked.reason.trim(), 1000);
  const title = cut(article.title.trim(), 200) || 'Untitled story';
  const url = new URL(article.canonicalUrl);
  return {
    id: postId,
    // The id's tail keeps the slug unique when two audiences pick the same article.
    slug: `${slugify(title).slice(0, 60).replace(/-+$/, '') || 'story'}-${postId.slice(-10).toLowerCase()}`,
    title,
    date: picked.at,
    teaser: cut(plainText(article.summary ?? ''), 600) || title,
    minutes: minutesOf(article),
    type: article.mediaType ?? 'article',
    audienceId,
    author: CURATOR,
    link: { url: article.canonicalUrl, domain: url.hostname.replace(/^www\./, '') },
    ...(reason && { reason }),
    createdAt: picked.at,
  };
}
