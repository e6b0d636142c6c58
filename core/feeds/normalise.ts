// One shape for every feed's items: a canonical URL that ignores tracking noise, plain-text title
// and summary, sanitized content, and a fingerprint that recognises one story under two URLs.
import { createHash } from 'node:crypto';
import type { FeedItem } from './parse';
import { absoluteUrl, plainText, sanitizeContent } from '#core/html';

export type FeedSource = { streamId: string; streamName: string; feedUrl: string };

export type NormalisedArticle = {
  canonicalUrl: string;
  title: string;
  /** Plain text, at most SUMMARY_LENGTH characters. */
  summary: string;
  /** Sanitized HTML. */
  content: string;
  image?: string;
  publishedAt?: string;
  author?: string;
  /** A podcast episode ('audio') or a video, and how long it plays when the feed says. */
  mediaType?: 'audio' | 'video';
  durationSeconds?: number;
  /** The stream's name. */
  source: string;
  streamId: string;
};

export const SUMMARY_LENGTH = 400;
const TITLE_LENGTH = 300;
// Keys live in DynamoDB keys (2 KB) and whole articles in one item (400 KB).
const URL_LENGTH = 2_000;
const CONTENT_LENGTH = 100_000;
const FUTURE_TOLERANCE_MS = 86_400_000;
const FINGERPRINT_TEXT = 500;

const TRACKING_PARAM = /^(?:utm_.*|fbclid|gclid|ref|mc_cid|mc_eid)$/i;

/**
 * The one spelling of a page's URL: absolute http(s), no fragment, no tracking parameters, the
 * rest sorted, no trailing slash (except the root). Undefined when it is not such a URL.
 */
export function canonicalUrl(url: string, base?: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim(), base);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  parsed.hash = '';
  const params = [...parsed.searchParams].filter(([name]) => !TRACKING_PARAM.test(name));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  parsed.search = new URLSearchParams(params).toString();
  if (parsed.pathname.length > 1) parsed.pathname = parsed.pathname.replace(/\/+$/, '') || '/';
  return parsed.href.length <= URL_LENGTH ? parsed.href : undefined;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}

/** At most `length` characters, cut at a word boundary, with an ellipsis when cut. */
export function truncateText(text: string, length = SUMMARY_LENGTH): string {
  if (text.length <= length) return text;
  let head = text.slice(0, length - 1);
  if (!/\s/.test(text.charAt(length - 1))) {
    const space = head.lastIndexOf(' ');
    if (space > length / 2) head = head.slice(0, space);
  }
  return `${head.replace(/[\s,;:.!?\-–—]+$/, '')}…`;
}

/** An ISO date; unparseable means unknown, and a date more than a day ahead means now. */
function publishedDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value.trim());
  if (Number.isNaN(time)) return undefined;
  const now = Date.now();
  return new Date(time > now + FUTURE_TOLERANCE_MS ? now : time).toISOString();
}

function httpUrl(value: string | undefined, base: string): string | undefined {
  const url = absoluteUrl(value, base);
  return url && /^https?:/.test(url) && url.length <= URL_LENGTH ? url : undefined;
}

/** An article ready to store, or undefined when the item has no usable URL or title. */
export function normaliseItem(item: FeedItem, source: FeedSource): NormalisedArticle | undefined {
  const url =
    (item.url && canonicalUrl(item.url, source.feedUrl)) ||
    (item.id && /^https?:\/\//i.test(item.id) ? canonicalUrl(item.id) : undefined);
  const title = item.title && clip(collapse(item.title), TITLE_LENGTH);
  if (!url || !title) return undefined;
  const html = item.contentHtml ?? item.summary ?? '';
  const content = sanitizeContent(html.slice(0, CONTENT_LENGTH), url);
  const firstImage = /<img[^>]*\ssrc="([^"]+)"/.exec(content)?.[1]?.replace(/&amp;/g, '&');
  const author = item.author && clip(collapse(item.author), 200);
  return {
    canonicalUrl: url,
    title,
    summary: truncateText(plainText(item.summary ?? '') || plainText(item.contentHtml ?? '')),
    content,
    ...definedOnly({
      image: httpUrl(item.image, url) ?? firstImage,
      publishedAt: publishedDate(item.publishedAt),
      author: author || undefined,
      mediaType: item.media?.kind,
      durationSeconds: item.media?.seconds,
    }),
    source: source.streamName,
    streamId: source.streamId,
  };
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * Text compared for sameness: case, punctuation and spacing do not count. Punctuation becomes a
 * space rather than nothing, so "1-11" and "11-1" stay different.
 */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Identifies a story whatever its URL: sha256 of its title and the start of its text. Without any
 * text the URL stands in, so two empty posts titled "Weekly roundup" stay two articles.
 */
export function fingerprint(
  article: Pick<NormalisedArticle, 'canonicalUrl' | 'title' | 'summary' | 'content'>,
): string {
  const body = comparable(plainText(article.content) || article.summary).slice(0, FINGERPRINT_TEXT);
  return createHash('sha256')
    .update(`${comparable(article.title)}\n${body || article.canonicalUrl}`)
    .digest('hex');
}
