import { describe, expect, it } from 'vitest';
import { takesNewer } from './use-draft';

describe('takesNewer', () => {
  const loaded = { revision: 3, json: '{"step":"descriptor","name":""}' };

  it('takes a newer draft while the page shows what it loaded with', () => {
    expect(takesNewer(loaded, loaded.json, 4)).toBe(true);
    expect(takesNewer(loaded, loaded.json, 9)).toBe(true);
    // No draft when the page loaded: the first one saved is newer.
    const none = { revision: 0, json: '{"step":"starters"}' };
    expect(takesNewer(none, none.json, 1)).toBe(true);
  });

  it('keeps the draft the page has when the server has none newer', () => {
    expect(takesNewer(loaded, loaded.json, undefined)).toBe(false);
    expect(takesNewer(loaded, loaded.json, 3)).toBe(false);
    expect(takesNewer(loaded, loaded.json, 2)).toBe(false);
  });

  it('never replaces what the reader did on the page since it loaded', () => {
    expect(takesNewer(loaded, '{"step":"descriptor","name":"l"}', 4)).toBe(false);
    expect(takesNewer(loaded, '{"step":"pointer"}', 4)).toBe(false);
  });
});
