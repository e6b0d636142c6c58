// The seed gives `npm start`'s demo data a corpus snapshot before any import: the posts' own word
// statistics, made once and never over a snapshot that imports have made since.
import { describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import { useOwnTable } from '#tests/integration/own-table';
import { posts } from './data';
import { seedDemoData } from './index';

useOwnTable('seed-corpus');

describe('the seed', () => {
  it("stores the posts' word statistics when no snapshot is stored, and only then", async () => {
    expect(await Ai.corpusSnapshot()).toBeUndefined();
    expect((await seedDemoData()).corpusSnapshot).toBe(1);
    const seeded = await Ai.corpusSnapshot();
    expect(seeded!.documents).toBe(posts.length);

    await Ai.refreshCorpus(posts.slice(0, 30).map((post) => ({ title: post.title, summary: '' })));
    const imported = await Ai.corpusSnapshot();
    expect((await seedDemoData()).corpusSnapshot).toBe(0);
    expect(await Ai.corpusSnapshot()).toEqual(imported);
    // Two seeds of every demo item and two corpus builds: more than a default test's time on a
    // loaded machine.
  }, 60_000);
});
