// The local ranker's corpus statistics: learned from texts, compact, and read back as written.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  buildCorpus,
  facetKey,
  idf,
  MAX_STEMS,
  parseCorpus,
  serialiseCorpus,
  type CorpusDocument,
} from './corpus';
import { MAX_LEARNED } from './domain';
import { wordVectors } from './vectors';

const vectors = await wordVectors();

const DOCS: CorpusDocument[] = [
  {
    title: 'Lending protocol adds isolated markets',
    summary: 'A DeFi lending market.',
    category: 'Markets',
    source: 'Chain Wire',
  },
  {
    title: 'Lending rates climb',
    summary: 'Borrowers pay more.',
    category: 'markets',
    source: 'Chain Wire',
  },
  { title: 'A generative art series sells out', summary: 'Collectors queue.', category: 'Art' },
  {
    title: 'Validators upgrade their clients',
    summary: 'The fork is near.',
    source: 'Validator Weekly',
  },
];

describe('corpus statistics', () => {
  it('counts in how many documents each stem occurs, and weighs rare stems above common ones', () => {
    const corpus = buildCorpus(DOCS, vectors, { dropRare: false });
    expect(corpus.documents).toBe(4);
    // "lending" twice in the first document still counts once for it.
    expect(corpus.df.get('lend')).toBe(2);
    expect(corpus.df.get('valid')).toBe(1);
    expect(idf(corpus, 'valid')).toBeGreaterThan(idf(corpus, 'lend'));
    // A stem the corpus never saw counts as the rarest.
    expect(idf(corpus, 'zebra')).toBeGreaterThan(idf(corpus, 'valid'));
  });

  it('counts categories and sources by their normalised names', () => {
    const corpus = buildCorpus(DOCS, vectors);
    expect(facetKey('Food & Drink')).toBe('fooddrink');
    expect([...corpus.facets.category]).toEqual([
      ['markets', 2],
      ['art', 1],
    ]);
    expect([...corpus.facets.source]).toEqual([
      ['chainwire', 2],
      ['validatorweekly', 1],
    ]);
  });

  it('drops stems seen once and then counts an unlisted stem as seen once', () => {
    const corpus = buildCorpus(DOCS, vectors);
    expect(corpus.df.has('valid')).toBe(false);
    expect(corpus.df.get('lend')).toBe(2);
    expect(corpus.unlisted).toBe(1);
    expect(idf(corpus, 'valid')).toBe(
      idf(buildCorpus(DOCS, vectors, { dropRare: false }), 'valid'),
    );
  });

  it('learns the centroid of its documents from twenty on, and keeps the general one below', () => {
    expect(buildCorpus(DOCS, vectors).centroid).toEqual(vectors.centroid);
    const many = Array.from({ length: 20 }, (_, i) => ({
      ...DOCS[i % DOCS.length]!,
      title: `${DOCS[i % DOCS.length]!.title} ${i}`,
    }));
    const centroid = buildCorpus(many, vectors).centroid;
    expect(centroid).toHaveLength(vectors.dimensions);
    expect(centroid).not.toEqual(vectors.centroid);
  });

  it('reads back what it serialised, and the same documents give the same text', () => {
    const corpus = buildCorpus(DOCS, vectors, { dropRare: false });
    const text = serialiseCorpus(corpus);
    expect(parseCorpus(text)).toEqual(corpus);
    expect(serialiseCorpus(buildCorpus([...DOCS], vectors, { dropRare: false }))).toBe(text);
    expect(() => parseCorpus(Buffer.from('{"version":2}').toString('base64'))).toThrow();
  });

  it('reads back learned topic profiles, and a version 1 snapshot as having none', () => {
    const documents = ['Firedancer', 'Agave'].flatMap((client) => [
      { title: `${client} ships a Solana validator client`, summary: 'Compute units on Solana.' },
      { title: `Solana validators try ${client}`, summary: 'Priority fees and Anchor.' },
    ]);
    const corpus = buildCorpus(documents, vectors, { dropRare: false });
    expect(corpus.profiles.size).toBeGreaterThan(0);
    expect(parseCorpus(serialiseCorpus(corpus)).profiles).toEqual(corpus.profiles);
    const older = JSON.stringify({
      version: 1,
      documents: 1,
      unlisted: 0,
      df: [['solana', 1]],
      facets: { category: [], source: [] },
      centroid: [],
    });
    expect(parseCorpus(gzipSync(older).toString('base64')).profiles.size).toBe(0);
  });

  it('keeps at most MAX_STEMS stems and MAX_LEARNED profiles, so the snapshot stays far below the 400 KB item limit', () => {
    // A worst case: twice as many distinct stems as are kept, each in two documents, none alike,
    // every document of the field (a topic's name in it), so every stem learns a profile.
    // Letters only (digits would make number tokens), ending in x, which no stemming rule touches.
    const word = (i: number) =>
      `zq${[...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('')}x`;
    const stems = 2 * MAX_STEMS;
    const documents = Array.from({ length: stems / 25 }, (_, d) => {
      const words = Array.from({ length: 50 }, (_, k) => word((d * 50 + k) % stems));
      const field = ['Solana', 'reentrancy', 'stablecoin', 'rollups'][d % 4];
      return {
        title: `${field} ${words.slice(0, 25).join(' ')}`,
        summary: words.slice(25).join(' '),
      };
    });
    const corpus = buildCorpus(documents, vectors);
    expect(corpus.df.size).toBe(MAX_STEMS);
    expect(corpus.profiles.size).toBe(MAX_LEARNED);
    expect(serialiseCorpus(corpus).length).toBeLessThan(350_000);
  });
});
