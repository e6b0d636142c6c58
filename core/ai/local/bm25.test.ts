// The assessment's IDF, counted from the background once, must be what learning the background
// corpus with the document again gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backgroundTerms, bm25, idfWithDocument } from './bm25';

const backgroundStems = [...new Set(backgroundTerms().flatMap((line) => line.map((t) => t.stem)))];

describe('idfWithDocument', () => {
  it('gives the IDF and the highest IDF that learning the corpus with the document gives', () => {
    const stem = fc.oneof(fc.constantFrom(...backgroundStems), fc.stringMatching(/^[a-z]{3,8}$/));
    fc.assert(
      fc.property(fc.array(stem, { maxLength: 12 }), (document) => {
        const learned = bm25([document]);
        const counted = idfWithDocument(document);
        expect(counted.maxIdf).toBe(learned.maxIdf);
        for (const s of [...document, 'neverseenstem', backgroundStems[0]!]) {
          expect(counted.idf(s)).toBe(learned.idf(s));
        }
      }),
      { numRuns: 60 },
    );
  });
});
