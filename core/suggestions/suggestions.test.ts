import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as Suggestions from '#core/suggestions';
import { parseSuggestions } from '#core/common';

/** Today's audience_suggested events whose text holds `marker`. */
async function suggestedEvents(marker: string) {
  const today = new Date().toISOString().slice(0, 10);
  return (await Analytics.forDay(today)).filter(
    (event) => event.name === 'audience_suggested' && event.text?.includes(marker),
  );
}

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

  it('records one audience_suggested event per stored suggestion, keyed by its id', async () => {
    const marker = ulid();
    const stored = await Suggestions.suggest({
      text: `stake ${marker} eth, audit ${marker} bridges`,
      source: 'after-niches',
      subscriberId: ulid(),
    });
    const events = await suggestedEvents(marker);
    expect(events.map((event) => event.id).sort()).toEqual(
      stored.map((suggestion) => `audience_suggested:${suggestion.id}`).sort(),
    );
    expect(events.map((event) => event.text).sort()).toEqual([
      `audit ${marker} bridges`,
      `stake ${marker} eth`,
    ]);
    for (const event of events) {
      expect(event.path).toBe('/subscribed-to-newsletter-suggestions');
      // Nothing that names the subscriber: only the suggestion's text.
      expect(JSON.stringify(event)).not.toContain(stored[0]!.subscriberId);
    }
  });

  it('answers invalid text with the form message', async () => {
    await expect(Suggestions.suggest({ text: ',', source: 'after-niches' })).rejects.toMatchObject({
      message: 'Please correct all errors to submit',
      status: 400,
    });
  });

  it('refuses text holding control characters or invalid UTF-8 with a clear message, storing nothing', async () => {
    const marker = ulid();
    for (const text of [`zk ${marker}\u0000 rollups`, `defi ${marker} \uFFFD\uFFFD, nfts`]) {
      await expect(
        Suggestions.suggest({ text, source: 'pre-success' }),
        JSON.stringify(text),
      ).rejects.toMatchObject({
        message:
          'This text contains control characters or unreadable symbols (such as �). Please remove them.',
        status: 400,
      });
    }
    expect((await Suggestions.latest(20)).filter((s) => s.text.includes(marker))).toEqual([]);
    expect(await suggestedEvents(marker)).toEqual([]);
  });

  it('stores each suggestion in NFC, a line break in the textarea as a space', async () => {
    const marker = ulid();
    await Suggestions.suggest({ text: `cafe\u0301 ${marker}\r\nowners`, source: 'pre-success' });
    expect(
      (await Suggestions.latest(5)).filter((s) => s.text.includes(marker)).map((s) => s.text),
    ).toEqual([`café ${marker} owners`]);
  });
});
