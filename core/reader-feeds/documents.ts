// The private feed's documents: RSS 2.0, JSON Feed 1.1 and an OPML list naming the feed. Each item
// is one story: its rating and reasons, the other sources that tell it, and its signed like/dislike
// links.
import { STORY_TEXTS } from '#core/common';
import type { FeedStory } from '#core/feed';
import { escapeHtml } from '#core/html';

export type FeedItem = FeedStory & { likeUrl: string; dislikeUrl: string };

export type FeedDocument = {
  title: string;
  /** The reader's feed page on the site. */
  homeUrl: string;
  /** This document's own URL (the secret one). */
  selfUrl: string;
  /** The JSON Feed's URL, for the JSON document's `feed_url`. */
  jsonUrl: string;
  updatedAt: Date;
  items: FeedItem[];
};

const FEED_DESCRIPTION = 'Your stories from Cluefeed, ranked for your clues';

const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** Why the story is in the reader's list, as the feed page says it. */
function reasonsOf(story: FeedStory): string[] {
  return [
    ...(story.reason ? [story.reason] : []),
    ...(story.relevantClues.length > 0
      ? [`Matches your clues: ${story.relevantClues.join('; ')}`]
      : []),
  ];
}

/** The story's other sources, as a list of links under how many there are in all. */
function otherSourcesHtml(item: FeedItem): string[] {
  const others = item.otherSourceCount;
  if (others < 1) return [];
  const links = item.alsoCoveredBy.map(
    (other) =>
      `<li><a href="${escapeHtml(other.link)}">${escapeHtml(other.source)}</a>: ${escapeHtml(other.title)}</li>`,
  );
  return [
    `<p><strong>${STORY_TEXTS.alsoCoveredBy(others)}${item.grewBy ? ` (${STORY_TEXTS.updated(item.grewBy)})` : ''}:</strong></p>`,
    ...(links.length > 0 ? [`<ul>${links.join('')}</ul>`] : []),
  ];
}

/** The item's body: the excerpt, the rating, the reasons, other sources and the one-click links. */
function itemHtml(item: FeedItem): string {
  return [
    `<p>${escapeHtml(item.excerpt)}</p>`,
    `<p><strong>Rating:</strong> ${escapeHtml(item.label)}</p>`,
    ...reasonsOf(item).map((reason) => `<p><strong>Why:</strong> ${escapeHtml(reason)}</p>`),
    ...otherSourcesHtml(item),
    `<p><a href="${escapeHtml(item.likeUrl)}">Like</a> · <a href="${escapeHtml(item.dislikeUrl)}">Dislike</a></p>`,
  ].join('');
}

export function rssOf(document: FeedDocument): string {
  const items = document.items.map((item) =>
    [
      '<item>',
      `<title>${xml(item.title)}</title>`,
      `<link>${xml(item.link)}</link>`,
      `<guid isPermaLink="false">${xml(`cluefeed:${item.articleId}`)}</guid>`,
      `<pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate>`,
      `<dc:creator>${xml(item.source)}</dc:creator>`,
      `<category>${xml(item.label)}</category>`,
      `<description>${xml(itemHtml(item))}</description>`,
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${xml(document.title)}</title>`,
    `<link>${xml(document.homeUrl)}</link>`,
    `<description>${xml(FEED_DESCRIPTION)}</description>`,
    `<atom:link href="${xml(document.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${document.updatedAt.toUTCString()}</lastBuildDate>`,
    '<ttl>60</ttl>',
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

export function jsonFeedOf(document: FeedDocument): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: document.title,
    home_page_url: document.homeUrl,
    feed_url: document.jsonUrl,
    description: FEED_DESCRIPTION,
    items: document.items.map((item) => ({
      id: `cluefeed:${item.articleId}`,
      url: item.link,
      title: item.title,
      content_html: itemHtml(item),
      summary: item.excerpt,
      ...(item.image && { image: item.image }),
      date_published: new Date(item.publishedAt).toISOString(),
      authors: [{ name: item.source }],
      tags: [item.label],
      // Extensions start with an underscore (JSON Feed 1.1): readers ignore what they do not know.
      _cluefeed: {
        rating: item.label,
        reasons: reasonsOf(item),
        source: item.source,
        like_url: item.likeUrl,
        dislike_url: item.dislikeUrl,
        sourceCount: item.sourceCount,
        alsoCoveredBy: item.alsoCoveredBy,
      },
    })),
  });
}

/** An OPML 2.0 subscription list holding the reader's feed, for reader apps' import. */
export function opmlOf(document: Pick<FeedDocument, 'title' | 'homeUrl' | 'selfUrl'>): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    `<head><title>${xml(document.title)}</title></head>`,
    '<body>',
    `<outline type="rss" text="${xml(document.title)}" title="${xml(document.title)}" xmlUrl="${xml(document.selfUrl)}" htmlUrl="${xml(document.homeUrl)}"/>`,
    '</body>',
    '</opml>',
    '',
  ].join('\n');
}
