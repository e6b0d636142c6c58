import { describe, expect, it, vi } from 'vitest';
import { isHiddenJson, parseClues, splitMessage } from './messages';

describe('splitMessage', () => {
  it('makes one bubble per paragraph and per list item, dashes dropped', () => {
    expect(
      splitMessage(
        "Here are the clues you've given us:\n\n- I build lending protocols\n- I collect generative art\n\nWhat would you like to change?",
      ),
    ).toEqual([
      "Here are the clues you've given us:",
      'I build lending protocols',
      'I collect generative art',
      'What would you like to change?',
    ]);
  });

  it('keeps a single paragraph whole, dashes inside a line included, and drops empty pieces', () => {
    expect(splitMessage('Layer-2s - rollups, mostly.\r\n\r\n\n')).toEqual([
      'Layer-2s - rollups, mostly.',
    ]);
    expect(splitMessage('- first\n   - second')).toEqual(['first', 'second']);
    expect(splitMessage('  \n\n ')).toEqual([]);
  });
});

describe('isHiddenJson', () => {
  it('hides JSON that mentions clues or Reasoning, fenced or not', () => {
    expect(isHiddenJson('{"clues":[{"clue":"I build"}],"suggestion":""}')).toBe(true);
    expect(isHiddenJson('{"cluesToBeAdded":[],"cluesToBeRemoved":[]}')).toBe(true);
    expect(isHiddenJson('```json\n{"Reasoning": "the reader builds"}\n```')).toBe(true);
  });

  it('shows text that merely talks about clues, and JSON about something else', () => {
    expect(isHiddenJson('These are your clues: {I build}')).toBe(false);
    expect(isHiddenJson('{"weather": "sunny"}')).toBe(false);
    expect(isHiddenJson('{"clues": broken')).toBe(false);
  });
});

describe('parseClues', () => {
  it('reads an onboarding review and a change review, items as { clue }, { mute } or text', () => {
    expect(
      parseClues('{"clues":[{"clue":"I build lending protocols"}],"suggestion":"Add one more"}'),
    ).toEqual({
      clues: ['I build lending protocols'],
      suggestion: 'Add one more',
      cluesToBeAdded: ['I build lending protocols'],
      cluesToBeRemoved: [],
      cluesToRemain: [],
      mutesToBeAdded: [],
      mutesToBeRemoved: [],
    });
    expect(
      parseClues(
        '{"cluesToBeAdded":["I run validators"],"cluesToBeRemoved":[{"clue":"I trade NFTs"}],"cluesToRemain":[{"clue":"I research MEV"}],"mutesToBeAdded":[{"mute":"Solana"}],"mutesToBeRemoved":["NFT drops"]}',
      ),
    ).toEqual({
      clues: ['I run validators'],
      suggestion: '',
      cluesToBeAdded: ['I run validators'],
      cluesToBeRemoved: ['I trade NFTs'],
      cluesToRemain: ['I research MEV'],
      mutesToBeAdded: ['Solana'],
      mutesToBeRemoved: ['NFT drops'],
    });
  });

  it('logs and ignores invalid JSON or a shape without clues', () => {
    const log = vi.fn();
    expect(parseClues('{"clues": [', log)).toBeUndefined();
    expect(parseClues('{"answer": 42}', log)).toBeUndefined();
    expect(parseClues('{"clues": "I build"}', log)).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(3);
    expect(log.mock.calls[0]![0]).toBe('Assistant: invalid clues JSON ignored');
  });
});
