import { describe, expect, it } from 'vitest';
import { takesNewer } from './use-draft';

describe('takesNewer', () => {
  const loaded = { revision: 3, json: '{"step":"descriptor","name":""}' };
  const untouched = { ...loaded, sending: false };

  it('takes a newer draft while nothing changed on the page since it loaded', () => {
    expect(takesNewer(loaded, untouched, 4)).toBe(true);
    expect(takesNewer({ revision: 0 }, { revision: 0, sending: false }, 1)).toBe(true);
  });

  it('keeps the draft the page has when the server has none newer', () => {
    expect(takesNewer(loaded, untouched, undefined)).toBe(false);
    expect(takesNewer(loaded, untouched, 3)).toBe(false);
    expect(takesNewer(loaded, untouched, 2)).toBe(false);
  });

  it('never replaces what the reader did on the page: typed, being saved, or saved', () => {
    const typed = '{"step":"descriptor","name":"lending"}';
    expect(takesNewer(loaded, { ...untouched, json: typed }, 4)).toBe(false);
    expect(takesNewer(loaded, { ...untouched, sending: true }, 4)).toBe(false);
    expect(takesNewer(loaded, { revision: 4, json: typed, sending: false }, 5)).toBe(false);
    expect(takesNewer(loaded, { ...untouched, revision: 4 }, 5)).toBe(false);
  });
});
