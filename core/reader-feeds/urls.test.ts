import { describe, expect, it } from 'vitest';
import { redactedKeys } from './urls';

describe('redactedKeys', () => {
  it('hides the key of a feed path in any case, and leaves the vote page alone', () => {
    expect(redactedKeys('GET /reader-feed/abc123/feed.xml')).toBe(
      'GET /reader-feed/[redacted]/feed.xml',
    );
    // The router serves these paths too, so their keys are as secret.
    expect(redactedKeys('/READER-FEED/abc123/feed.xml')).toBe('/reader-feed/[redacted]/feed.xml');
    expect(redactedKeys('No route matches URL "/Reader-Feed/abc123/feed.json"')).toBe(
      'No route matches URL "/reader-feed/[redacted]/feed.json"',
    );
    expect(redactedKeys('/reader-feed/vote?story=S')).toBe('/reader-feed/vote?story=S');
  });
});
