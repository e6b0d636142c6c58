// Builds the grown web3 sets from the readers in web3-readers.source.ts: every reader is scored
// against every story a reader's feed sees in `npm start` (the seeded posts, and the fixture
// feeds' articles as the import stores them), so "relevant stories in the top 10" means something.
//   npx tsx scripts/eval/build-web3-readers.ts            writes web3-readers{,-holdout}.*
//   npx tsx scripts/eval/build-web3-readers.ts --review   prints each reader's labels by title
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint, normaliseItem, parseFeed } from '#core/feeds';
import { FIXTURE_FEEDS_DIR } from '#tests/fakes/feed-server';
import { posts } from '../seed/data';
import { holdoutReaders, readers, type Reader } from './web3-readers.source';

type Candidate = { id: string; title: string; summary: string };

const OUT_DIR = import.meta.dirname;
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .replace(/-$/, '');

/**
 * The fixture feeds' articles as the import keeps them: the feeds in name order, an item without
 * a URL or title dropped, one story once by canonical URL or fingerprint, a feed that does not
 * parse (the deliberately broken one) skipped, as its import fails.
 */
function feedArticles(): Candidate[] {
  const urls = new Set<string>();
  const prints = new Set<string>();
  const articles: Candidate[] = [];
  const files = readdirSync(FIXTURE_FEEDS_DIR).filter((file) => /\.(xml|json)$/.test(file));
  for (const file of files.sort()) {
    let items;
    try {
      items = parseFeed(readFileSync(join(FIXTURE_FEEDS_DIR, file), 'utf8')).items;
    } catch {
      continue;
    }
    const source = { streamId: file, streamName: file, feedUrl: `http://fixtures.local/${file}` };
    for (const item of items) {
      const article = normaliseItem(item, source);
      if (!article) continue;
      const print = fingerprint(article);
      if (urls.has(article.canonicalUrl) || prints.has(print)) continue;
      urls.add(article.canonicalUrl);
      prints.add(print);
      articles.push({
        id: `feed:${slugOf(article.title)}`,
        title: article.title,
        summary: article.summary,
      });
    }
  }
  return articles;
}

const postCandidates: Candidate[] = posts.map((post) => ({
  id: `post:${post.slug}`,
  title: post.title,
  summary: post.teaser,
}));
const feedCandidates = feedArticles();
const candidates = [...postCandidates, ...feedCandidates];
if (new Set(candidates.map((c) => c.id)).size !== candidates.length)
  throw new Error('Two demo stories have the same id; lengthen the feed article ids.');

/** A label's story: a post by its slug, or the one feed article whose title starts so. */
function storyOf(reader: string, label: string): Candidate {
  const post = postCandidates.find((candidate) => candidate.id === `post:${label}`);
  if (post) return post;
  const found = feedCandidates.filter((candidate) => candidate.title.startsWith(label));
  if (found.length !== 1)
    throw new Error(`${reader}: "${label}" names ${found.length} stories, not one`);
  return found[0]!;
}

function relevantOf(reader: Reader): Record<string, number> {
  const relevant: Record<string, number> = {};
  for (const [label, gain] of Object.entries(reader.gains)) {
    const story = storyOf(reader.id, label);
    if (story.id in relevant) throw new Error(`${reader.id}: "${label}" is labelled twice`);
    relevant[story.id] = gain;
  }
  return relevant;
}

function write(name: string, group: Reader[]) {
  const ids = new Set(group.map((reader) => reader.id));
  if (ids.size !== group.length) throw new Error(`${name}: two readers share an id`);
  const inputs = group.map((reader) =>
    JSON.stringify({ id: reader.id, clues: reader.clues, candidates }),
  );
  const labels = group.map((reader) =>
    JSON.stringify({ id: reader.id, relevant: relevantOf(reader) }),
  );
  writeFileSync(join(OUT_DIR, `${name}.jsonl`), inputs.join('\n') + '\n');
  writeFileSync(join(OUT_DIR, `${name}.labels.jsonl`), labels.join('\n') + '\n');
  console.log(`Wrote ${group.length} readers x ${candidates.length} stories to ${name}.*`);
}

function review(group: Reader[]) {
  for (const reader of group) {
    const relevant = relevantOf(reader);
    console.log(`\n${reader.id}: ${reader.clues.map((clue) => `"${clue}"`).join(' + ')}`);
    for (const candidate of candidates
      .filter((c) => relevant[c.id])
      .sort((a, b) => relevant[b.id]! - relevant[a.id]!))
      console.log(`  ${relevant[candidate.id]}  ${candidate.title}`);
  }
}

if (process.argv.includes('--review')) {
  review([...readers, ...holdoutReaders]);
} else {
  write('web3-readers', readers);
  write('web3-readers-holdout', holdoutReaders);
}
