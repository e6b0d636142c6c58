// One ranker's resident memory, in a process of its own: bench:scoring runs this once for
// today's ranker and once for the product's, each rating every seed post against every seed
// audience with the corpus those posts make, and compares what each process holds at the end.
//   npx tsx scripts/bench/ranker-memory.ts today|product
import { audiences, posts } from '#scripts/seed/data';
import { buildCorpus } from '../../core/ai/local/corpus';
import { rateArticle } from '../../core/ai/local/relevance';
import { wordVectors } from '../../core/ai/local/vectors';
import { rateArticle as todaysRanker } from './baseline/relevance';

const which = process.argv[2];
if (which !== 'today' && which !== 'product') {
  console.error('Usage: npx tsx scripts/bench/ranker-memory.ts today|product');
  process.exit(2);
}
const rate = which === 'today' ? todaysRanker : rateArticle;
const articles = posts.map((post) => ({ title: post.title, summary: post.teaser }));
const vectors = await wordVectors();
const ranker = { corpus: buildCorpus(articles, vectors), vectors };
let rated = 0;
for (const article of articles)
  for (const audience of audiences) {
    rate(article, [audience.title], ranker);
    rated++;
  }
console.log(JSON.stringify({ which, rated, rssMb: process.memoryUsage().rss / 2 ** 20 }));
