// Feeds from the web, without storage: fetch one politely, parse any of the common formats, and
// normalise its items into articles with a canonical URL and a fingerprint.
export { FeedError, isFeedError, type FeedErrorCode } from './errors';
export { isPrivateAddress, resolvePublic, type AllowList } from './address-policy';
export { fetchFeed, USER_AGENT, type FetchFeedOptions, type FetchedFeed } from './fetch';
export { parseFeed, type FeedItem, type ParsedFeed } from './parse';
export {
  canonicalUrl,
  fingerprint,
  normaliseItem,
  truncateText,
  SUMMARY_LENGTH,
  type FeedSource,
  type NormalisedArticle,
} from './normalise';
export { plainText, sanitizeContent } from '#core/html';
