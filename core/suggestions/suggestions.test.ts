import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Suggestions from '#core/suggestions';
import { parseSuggestions } from '#core/common';

describe('audience suggestions', () => {
  it('splits several audiences separated by commas, ignoring a trailing comma', () => {
    expect(parseSuggestions(' run validators ,  design   token economies, ')).toEqual([
      'run validators',
      'design token economies',
    ]);
  });

  it('refuses empty text, an empty piece or a piece too short', () => {
    for (const text of ['', '  ', 'ok, , fine', 'ab', 'x'.repeat(121)])
      expect(parseSuggestions(text)).toBeUndefined();
  });

  it('stores each suggestion for the editors, newest first', async () => {
    const marker = ulid();
    await Suggestions.suggest({
      text: `trade ${marker} options, farm ${marker} points`,
      source: 'pre-success',
    });
    const latest = await Suggestions.latest(5);
    expect(
      latest
        .filter((s) => s.text.includes(marker))
        .map((s) => s.text)
        .sort(),
    ).toEqual([`farm ${marker} points`, `trade ${marker} options`]);
  });

  it('answers invalid text with the form message', async () => {
    await expect(Suggestions.suggest({ text: ',', source: 'after-niches' })).rejects.toMatchObject({
      message: 'Please correct all errors to submit',
      status: 400,
    });
  });
});
