// Turns a feed document (RSS 2.0, RSS 1.0, Atom or JSON Feed) into plain items. Titles come out as
// plain text; summary and content as HTML fragments, still untrusted until normalised.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FeedError } from './errors';
import { escapeHtml, looksLikeHtml, plainText, textToHtml } from '#core/html';

export type FeedItem = {
  url?: string;
  id?: string;
  title?: string;
  summary?: string;
  contentHtml?: string;
  image?: string;
  publishedAt?: string;
  author?: string;
  /** A podcast episode or a video: what it is and, when the feed says, how long it plays. */
  media?: FeedMedia;
};

export type FeedMedia = { kind: 'audio' | 'video'; seconds?: number };

export type ParsedFeed = { title?: string; items: FeedItem[] };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: true,
  // fast-xml-parser 5 decodes numeric references (&#8217;) and HTML named ones (&nbsp;), which
  // feeds use everywhere, only with this option.
  htmlEntities: true,
  parseTagValue: false,
  parseAttributeValue: false,
  // XHTML content is markup, not text: keep it as written.
  stopNodes: ['feed.entry.content[type=xhtml]', 'feed.entry.summary[type=xhtml]'],
});

const JSON_FEED_VERSION = /^https?:\/\/jsonfeed\.org\/version\/1(\.1)?\/?$/;

export function parseFeed(body: string, contentType?: string): ParsedFeed {
  const text = body.replace(/^\uFEFF/, '').trim();
  if (text === '') throw new FeedError('feed.malformed', 'Feed is empty');
  if (text.startsWith('{') || text.startsWith('[')) return parseJsonFeed(text);
  if (/^<!doctype html|^<html[\s>]/i.test(text) || /text\/html/i.test(contentType ?? '')) {
    if (!/<(rss|feed|rdf:RDF)[\s>]/.test(text.slice(0, 2_000))) {
      throw new FeedError('feed.unsupported', 'The URL answered a web page, not a feed');
    }
  }
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    const { line, col, msg } = validation.err;
    throw new FeedError(
      'feed.malformed',
      `Feed is not well-formed XML (line ${line}, column ${col}): ${msg}`,
    );
  }
  let document: Record<string, unknown>;
  try {
    document = parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new FeedError('feed.malformed', `Feed could not be parsed: ${String(error)}`, {
      cause: error,
    });
  }
  if (isRecord(document.rss)) return parseRss(document.rss);
  if (isRecord(document.feed)) return parseAtom(document.feed);
  if (isRecord(document['rdf:RDF'])) return parseRdf(document['rdf:RDF']);
  throw new FeedError('feed.unsupported', 'The document is XML but not an RSS or Atom feed');
}

type Node = Record<string, unknown>;

function isRecord(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** An element's text, whether the parser gave a string or an object with attributes. */
function text(value: unknown): string | undefined {
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isRecord(value)) return text(value['#text']);
  return undefined;
}

function attr(value: unknown, name: string): string | undefined {
  return isRecord(value) ? text(value[`@_${name}`]) : undefined;
}

/** A title that may carry markup or entities, as plain text. */
function titleText(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return looksLikeHtml(value) ? plainText(value) : value;
}

// ---------------------------------------------------------------------------
// RSS 2.0 and RSS 1.0 (RDF)
// ---------------------------------------------------------------------------

const IMAGE_FILE = /\.(?:jpe?g|png|gif|webp|avif)(?:[?#]|$)/i;

function isImage(media: unknown): boolean {
  const type = attr(media, 'type') ?? '';
  const medium = attr(media, 'medium');
  if (medium) return medium === 'image';
  if (type) return type.startsWith('image/');
  return IMAGE_FILE.test(attr(media, 'url') ?? '');
}

/** The item's picture: Media RSS content or thumbnail, else an image enclosure. */
function rssImage(item: Node): string | undefined {
  const groups = list(item['media:group']).filter(isRecord);
  const contents = [item, ...groups].flatMap((node) => list(node['media:content']));
  const thumbnails = [item, ...groups].flatMap((node) => list(node['media:thumbnail']));
  const enclosures = list(item.enclosure).filter(
    (enclosure) => attr(enclosure, 'type')?.startsWith('image/') ?? false,
  );
  return attr(contents.find(isImage) ?? thumbnails[0] ?? enclosures[0], 'url');
}

/** 'audio' or 'video' from a MIME type or a Media RSS medium; undefined for anything else. */
function mediaKind(value: string | undefined): FeedMedia['kind'] | undefined {
  const kind = value?.split('/')[0]?.trim().toLowerCase();
  return kind === 'audio' || kind === 'video' ? kind : undefined;
}

/**
 * A running time in seconds: '2100', '35:00' or '0:35:00' (itunes:duration, Media RSS
 * duration). Undefined when it is not one, or is zero or over a day (a feed's mistake).
 */
function durationSeconds(value: string | undefined): number | undefined {
  if (!value || !/^\d+(?:\.\d+)?$|^\d+(?::[0-5]?\d){1,2}$/.test(value.trim())) return undefined;
  const seconds = value
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
  return seconds > 0 && seconds <= 86_400 ? Math.round(seconds) : undefined;
}

/**
 * Whether an RSS or Atom item is an episode or a video, from its audio or video enclosure or
 * Media RSS content, with the running time itunes:duration or the media's duration gives. An
 * item with only itunes:duration is a podcast episode.
 */
function rssMedia(item: Node): FeedMedia | undefined {
  const groups = list(item['media:group']).filter(isRecord);
  const contents = [item, ...groups]
    .flatMap((node) => list(node['media:content']))
    .map((media) => ({
      kind: mediaKind(attr(media, 'medium')) ?? mediaKind(attr(media, 'type')),
      seconds: durationSeconds(attr(media, 'duration')),
    }));
  // RSS has <enclosure>; Atom has <link rel="enclosure">.
  const enclosures = [
    ...list(item.enclosure),
    ...list(item.link).filter((link) => attr(link, 'rel') === 'enclosure'),
  ].map((link) => ({ kind: mediaKind(attr(link, 'type')), seconds: undefined }));
  const itunes = durationSeconds(text(item['itunes:duration']));
  const found = [...contents, ...enclosures].find((media) => media.kind);
  const kind = found?.kind ?? (itunes ? 'audio' : undefined);
  if (!kind) return undefined;
  const seconds = itunes ?? contents.find((media) => media.seconds)?.seconds;
  return seconds ? { kind, seconds } : { kind };
}

function rssItem(item: Node): FeedItem {
  const guid = text(item.guid);
  const guidIsLink = attr(item.guid, 'isPermaLink') !== 'false' && /^https?:\/\//i.test(guid ?? '');
  return {
    url: text(item.link) ?? (guidIsLink ? guid : undefined),
    id: guid,
    title: titleText(text(item.title)),
    summary: text(item.description),
    contentHtml: text(item['content:encoded']),
    image: rssImage(item),
    publishedAt: text(item.pubDate) ?? text(item['dc:date']),
    author: text(item['dc:creator']) ?? text(item.author),
    ...optional('media', rssMedia(item)),
  };
}

/** `{ [name]: value }`, or nothing when there is no value, so items carry no undefined keys. */
function optional<K extends string, T>(name: K, value: T | undefined): { [key in K]?: T } {
  return value === undefined ? {} : ({ [name]: value } as { [key in K]: T });
}

function parseRss(rss: Node): ParsedFeed {
  const channel = isRecord(rss.channel) ? rss.channel : {};
  return {
    title: titleText(text(channel.title)),
    items: list(channel.item).filter(isRecord).map(rssItem),
  };
}

function parseRdf(rdf: Node): ParsedFeed {
  const channel = isRecord(rdf.channel) ? rdf.channel : {};
  return {
    title: titleText(text(channel.title)),
    items: list(rdf.item).filter(isRecord).map(rssItem),
  };
}

// ---------------------------------------------------------------------------
// Atom
// ---------------------------------------------------------------------------

/** An Atom text construct as HTML (type text, html or xhtml). */
function atomHtml(value: unknown): string | undefined {
  const body = text(value);
  if (!body) return undefined;
  const type = attr(value, 'type') ?? 'text';
  if (type === 'html' || type === 'xhtml' || type === 'text/html') return body;
  if (type === 'text' || type === 'text/plain') return textToHtml(body);
  return undefined;
}

function atomTitle(value: unknown): string | undefined {
  const type = attr(value, 'type') ?? 'text';
  const body = text(value);
  return type === 'text' ? body : body && plainText(body);
}

function atomLink(entry: Node): string | undefined {
  const links = list(entry.link);
  // A missing rel means alternate; an alternate in XML or JSON is another feed, not the page.
  const page = links.find(
    (link) =>
      (attr(link, 'rel') ?? 'alternate') === 'alternate' &&
      !/xml|json/.test(attr(link, 'type') ?? ''),
  );
  return attr(page, 'href');
}

function atomImage(entry: Node): string | undefined {
  const enclosure = list(entry.link).find(
    (link) =>
      attr(link, 'rel') === 'enclosure' && (attr(link, 'type')?.startsWith('image/') ?? false),
  );
  return attr(enclosure, 'href') ?? rssImage(entry);
}

function atomEntry(entry: Node): FeedItem {
  const author = list(entry.author).find(isRecord);
  return {
    url: atomLink(entry),
    id: text(entry.id),
    title: atomTitle(entry.title),
    summary: atomHtml(entry.summary),
    contentHtml: atomHtml(entry.content),
    image: atomImage(entry),
    publishedAt: text(entry.published) ?? text(entry.updated),
    author: author && text(author.name),
    ...optional('media', rssMedia(entry)),
  };
}

function parseAtom(feed: Node): ParsedFeed {
  return {
    title: atomTitle(feed.title),
    items: list(feed.entry).filter(isRecord).map(atomEntry),
  };
}

// ---------------------------------------------------------------------------
// JSON Feed 1 and 1.1
// ---------------------------------------------------------------------------

function string(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A JSON Feed item's audio or video attachment, with its duration_in_seconds. */
function jsonMedia(item: Node): FeedMedia | undefined {
  for (const attachment of list(item.attachments).filter(isRecord)) {
    const kind = mediaKind(string(attachment.mime_type));
    if (!kind) continue;
    const seconds = durationSeconds(String(attachment.duration_in_seconds ?? ''));
    return seconds ? { kind, seconds } : { kind };
  }
  return undefined;
}

function jsonItem(item: Node): FeedItem {
  const authors = [...list(item.authors), item.author].filter(isRecord);
  const contentText = string(item.content_text);
  const summary = string(item.summary);
  return {
    url: string(item.url) ?? string(item.external_url),
    id: string(item.id) ?? (typeof item.id === 'number' ? String(item.id) : undefined),
    title: string(item.title),
    summary: summary && escapeHtml(summary),
    contentHtml: string(item.content_html) ?? (contentText && textToHtml(contentText)),
    image: string(item.image) ?? string(item.banner_image),
    publishedAt: string(item.date_published) ?? string(item.date_modified),
    author: authors.map((author) => string(author.name)).find(Boolean),
    ...optional('media', jsonMedia(item)),
  };
}

function parseJsonFeed(body: string): ParsedFeed {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new FeedError('feed.malformed', `Feed is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!isRecord(document) || !JSON_FEED_VERSION.test(string(document.version) ?? '')) {
    throw new FeedError(
      'feed.unsupported',
      'The document is JSON but not a JSON Feed (no jsonfeed.org version)',
    );
  }
  if (!Array.isArray(document.items)) {
    throw new FeedError('feed.malformed', 'JSON Feed has no items list');
  }
  return { title: string(document.title), items: document.items.filter(isRecord).map(jsonItem) };
}
