// The shipped readers sets stay true to the demo: every reader sees every seeded post, and every
// label names one of the reader's candidates (rebuild with build-web3-readers.ts when this fails).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { posts } from '../seed/data';

type Group = { id: string; clues: string[]; candidates: { id: string; title: string }[] };
type Labels = { id: string; relevant: Record<string, number> };

const read = <T>(file: string): T[] =>
  readFileSync(join(import.meta.dirname, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

const sets = {
  development: {
    groups: read<Group>('web3-readers.jsonl'),
    labels: read<Labels>('web3-readers.labels.jsonl'),
  },
  holdout: {
    groups: read<Group>('web3-readers-holdout.jsonl'),
    labels: read<Labels>('web3-readers-holdout.labels.jsonl'),
  },
};

describe('the grown web3 readers sets', () => {
  it('have at least 25 development readers and 8 held out, none in both', () => {
    expect(sets.development.groups.length).toBeGreaterThanOrEqual(25);
    expect(sets.holdout.groups).toHaveLength(8);
    const development = new Set(sets.development.groups.map((group) => group.id));
    expect(sets.holdout.groups.filter((group) => development.has(group.id))).toEqual([]);
  });

  for (const [name, { groups, labels }] of Object.entries(sets)) {
    it(`${name}: every reader has 1-3 clues and the same candidates, every seeded post among them`, () => {
      const first = groups[0]!.candidates.map((candidate) => candidate.id);
      for (const group of groups) {
        expect(group.clues.length).toBeGreaterThanOrEqual(1);
        expect(group.clues.length).toBeLessThanOrEqual(3);
        expect(group.candidates.map((candidate) => candidate.id)).toEqual(first);
      }
      expect(first).toEqual(expect.arrayContaining(posts.map((post) => `post:${post.slug}`)));
      expect(first.length).toBeGreaterThan(posts.length);
    });

    it(`${name}: every reader has labels, each a gain of 1-3 on one of their candidates`, () => {
      expect(labels.map((label) => label.id)).toEqual(groups.map((group) => group.id));
      const candidates = new Set(groups[0]!.candidates.map((candidate) => candidate.id));
      for (const { relevant } of labels) {
        expect(Object.keys(relevant).length).toBeGreaterThan(0);
        for (const [id, gain] of Object.entries(relevant)) {
          expect(candidates).toContain(id);
          expect([1, 2, 3]).toContain(gain);
        }
      }
    });
  }
});
