import { describe, expect, it } from 'vitest';
import labelled from './pairs.json' with { type: 'json' };
import { clip, onceEach, SUMMARY_CHARS, written } from './summary';

const reports = labelled.reports as Record<string, { title: string; summary: string }>;
const members = (...ids: string[]) =>
  ids.map((id) => ({ title: reports[id]!.title, text: reports[id]!.summary }));

describe("A story's headline and summary", () => {
  it("leads with the title that shares most words with the other members', not an outlier's", async () => {
    const { headline } = await written(
      members('lending-oracle-2', 'lending-oracle-1', 'lending-oracle-3'),
    );
    expect(headline).not.toBe(reports['lending-oracle-2']!.title);
    expect([reports['lending-oracle-1']!.title, reports['lending-oracle-3']!.title]).toContain(
      headline,
    );
  });

  it("sums up from the members' own sentences, each once, within the length", async () => {
    const texts = members('bridge-key-3', 'bridge-key-2', 'bridge-key-1');
    const { summary } = await written([...texts, texts[0]!]);
    expect(summary.length).toBeGreaterThan(60);
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_CHARS);
    const sentences = summary.match(/[^.!?]+[.!?]/g)!.map((sentence) => sentence.trim());
    expect(new Set(sentences).size).toBe(sentences.length);
    const source = texts.map((member) => member.text).join(' ');
    for (const sentence of sentences) expect(source).toContain(sentence);
  });

  it('is the title and the summary of a story of one', async () => {
    const [only] = members('fca-staking-2');
    expect(await written([only!])).toEqual({ headline: only!.title, summary: only!.text });
  });

  it('cuts a long text at a sentence end, else at a word', () => {
    expect(clip('First sentence here. Second one is much longer than the limit allows', 40)).toBe(
      'First sentence here.',
    );
    expect(clip('one two three four five six seven eight nine ten', 20)).toBe(
      'one two three four…',
    );
  });

  it('keeps amounts and abbreviations whole when it drops repeated sentences', () => {
    expect(onceEach('An attacker took $31.4 million. The U.S. team paused it.')).toBe(
      'An attacker took $31.4 million. The U.S. team paused it.',
    );
    expect(
      onceEach('It raised $1.5 million. Rival lost $2.5 million. It raised $1.5 million.'),
    ).toBe('It raised $1.5 million. Rival lost $2.5 million.');
  });
});
