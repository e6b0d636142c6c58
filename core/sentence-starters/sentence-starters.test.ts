import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as SentenceStarters from './index';
import { combinedClue, orderPointers, skipsToClue } from './index';

describe('skipsToClue', () => {
  it('skips the pointer step for a starter without pointers or with only the unnamed one', () => {
    expect(skipsToClue({ pointers: [] })).toBe(true);
    expect(skipsToClue({})).toBe(true);
    expect(skipsToClue({ pointers: [{ name: undefined }] })).toBe(true);
    expect(skipsToClue({ pointers: [{ name: '  ' }] })).toBe(true);
  });

  it('asks for a pointer when there is a named one', () => {
    expect(skipsToClue({ pointers: [{ name: 'in' }] })).toBe(false);
    expect(skipsToClue({ pointers: [{ name: 'in' }, { name: undefined }] })).toBe(false);
    expect(skipsToClue({ pointers: [{}, {}] })).toBe(false);
  });
});

describe('orderPointers', () => {
  it('orders pointers by their ordering and puts the unnamed Add your own last', () => {
    const ordered = orderPointers([
      { ordering: 0, examples: ['anything else'] },
      { name: 'tools for', ordering: 2, examples: [] },
      { name: 'protocols on', ordering: 1, examples: ['Ethereum'] },
    ]);
    expect(ordered).toEqual([
      { name: 'protocols on', ordering: 1, examples: ['Ethereum'] },
      { name: 'tools for', ordering: 2, examples: [] },
      { ordering: 0, examples: ['anything else'] },
    ]);
  });

  it('always offers Add your own after named pointers, without examples when none are stored', () => {
    expect(orderPointers([{ name: 'in', ordering: 3, examples: [] }])).toEqual([
      { name: 'in', ordering: 3, examples: [] },
      { ordering: 4, examples: [] },
    ]);
    expect(orderPointers([])).toEqual([]);
  });
});

describe('combinedClue', () => {
  it('joins starter, pointer name and descriptor by single spaces', () => {
    expect(combinedClue({ name: 'I build' }, { name: 'tools for' }, ' DAO  treasuries ')).toBe(
      'I build tools for DAO treasuries',
    );
  });

  it('leaves out a missing or unnamed pointer', () => {
    expect(combinedClue({ name: 'I collect' }, undefined, 'generative art')).toBe(
      'I collect generative art',
    );
    expect(combinedClue({ name: 'I collect' }, { name: undefined }, 'generative art')).toBe(
      'I collect generative art',
    );
  });
});

describe('SentenceStarters.list', () => {
  it('answers starters by ordering with pointers ordered and Add your own last', async () => {
    const [first, second] = [ulid(), ulid()];
    await SentenceStarters.create({
      id: second,
      name: 'I research',
      ordering: 1_000_002,
      pointers: [],
    });
    await SentenceStarters.create({
      id: first,
      name: 'I build',
      ordering: 1_000_001,
      pointers: [
        { ordering: 9, examples: ['wallets for my family'] },
        { name: 'tools for', ordering: 2, examples: ['DAO treasuries'] },
        { name: 'protocols on', ordering: 1, examples: ['Ethereum L2s'] },
      ],
    });

    const mine = (await SentenceStarters.list()).filter((s) => [first, second].includes(s.id));
    expect(mine).toEqual([
      {
        id: first,
        name: 'I build',
        ordering: 1_000_001,
        skipToClue: false,
        pointers: [
          { name: 'protocols on', ordering: 1, examples: ['Ethereum L2s'] },
          { name: 'tools for', ordering: 2, examples: ['DAO treasuries'] },
          { ordering: 9, examples: ['wallets for my family'] },
        ],
      },
      { id: second, name: 'I research', ordering: 1_000_002, skipToClue: true, pointers: [] },
    ]);
    expect(await SentenceStarters.byId(first)).toEqual(mine[0]);
  });

  it('refuses a blank starter and two unnamed pointers with clear messages', async () => {
    await expect(SentenceStarters.create({ name: '  ', ordering: 1 })).rejects.toMatchObject({
      status: 400,
      message: 'Please add a sentence starter',
    });
    await expect(
      SentenceStarters.create({
        name: 'I trade',
        ordering: 1,
        pointers: [
          { ordering: 1, examples: [] },
          { ordering: 2, examples: [] },
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Only one pointer may be unnamed (it carries the examples of Add your own)',
    });
  });
});
