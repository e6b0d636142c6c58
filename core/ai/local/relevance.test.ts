// The local ranker as readers meet it, through the provider: a reading history is a profile (its
// categories count, and a story on the same topic in other words ranks high), scores spread over
// the five labels, and the statistics come from a corpus of the product's articles.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import { audiences, posts } from '#scripts/seed/data';

const gpt = { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt };
const vectors = await Ai.wordVectors();

async function rate(provider: Ai.Ai, article: Ai.ArticleInput, clues: string[]) {
  const { answer } = await provider.complete({
    model: gpt,
    task: Ai.articleRelevance,
    input: { article, clues },
    user: 'unused by the local provider',
  });
  return answer;
}

// A general-news reader, as a reading history: titles with their categories.
const HISTORY = [
  'Ten easy weeknight pasta recipes (foodanddrink)',
  'The secret to a crispy roast chicken (foodanddrink)',
  'How to bake sourdough bread at home (foodanddrink)',
  'Senator announces run for governor (news)',
];
const CLICKED = {
  title: 'How long to cook a Thanksgiving turkey',
  summary: 'Timings by weight, and when to baste it.',
  category: 'foodanddrink',
};
const OTHERS = [
  { title: 'Quarterback ruled out for the season', summary: 'A knee injury.', category: 'sports' },
  {
    title: 'Stocks slip as oil prices climb',
    summary: 'Markets close lower.',
    category: 'finance',
  },
  { title: 'Storm brings snow to the plains', summary: 'Roads are closed.', category: 'weather' },
  {
    title: 'Actor joins the cast of a sequel',
    summary: 'Filming starts soon.',
    category: 'movies',
  },
];

/** What the product would have imported: these stories and more of the same sections. */
const NEWS = [
  CLICKED,
  ...OTHERS,
  ...['sports', 'sports', 'news', 'news', 'finance', 'lifestyle', 'weather', 'movies'].map(
    (category, i) => ({ title: `Story ${i} of the day`, summary: 'More to come.', category }),
  ),
];

describe('the local ranker', () => {
  it("ranks first the story a reader's history points to, though it shares no word with it", async () => {
    // Content words: four letters or more, so "how", "to" and "a" do not count.
    const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{4,}/g));
    const history = words(HISTORY.join(' '));
    expect([...words(`${CLICKED.title} ${CLICKED.summary}`)].filter((w) => history.has(w))).toEqual(
      [],
    );
    const corpus = Ai.buildCorpus(NEWS, vectors);
    const local = Ai.localProvider({ corpus: async () => corpus });
    const clicked = await rate(local, CLICKED, HISTORY);
    for (const other of OTHERS) {
      expect((await rate(local, other, HISTORY)).score, other.title).toBeLessThan(clicked.score);
    }
    expect(clicked.label).not.toBe('Not Relevant');
    // It names the clues that earned it: the history's cooking stories, best first.
    expect(clicked.relevantClues.length).toBeGreaterThan(0);
    for (const clue of clicked.relevantClues) expect(clue).toMatch(/\(foodanddrink\)$/);
  });

  it("weighs the reader's taste for a category against how common the category is", async () => {
    const corpus = Ai.buildCorpus(NEWS, vectors);
    const local = Ai.localProvider({ corpus: async () => corpus });
    const story = { title: 'A story of the day', summary: 'More to come.' };
    const inTaste = await rate(local, { ...story, category: 'foodanddrink' }, HISTORY);
    const plain = await rate(local, story, HISTORY);
    const elsewhere = await rate(local, { ...story, category: 'sports' }, HISTORY);
    expect(inTaste.score).toBeGreaterThan(plain.score);
    expect(plain.score).toBeGreaterThan(elsewhere.score);
  });

  it("spreads the seed's scores over all five labels, and rates an audience's own stories above the bottom", async () => {
    const corpus = Ai.buildCorpus(
      posts.map((post) => ({ title: post.title, summary: post.teaser })),
      vectors,
    );
    const local = Ai.localProvider({ corpus: async () => corpus });
    const labels = new Set<string>();
    let own = 0;
    let ownAtBottom = 0;
    for (const audience of audiences) {
      for (const post of posts) {
        const { label } = await rate(local, { title: post.title, summary: post.teaser }, [
          audience.title,
        ]);
        labels.add(label);
        if (post.audience !== audience.key) continue;
        own++;
        if (label === 'Not Relevant') ownAtBottom++;
      }
    }
    expect([...labels].sort()).toEqual([...Ai.RELEVANCE_LABELS].sort());
    expect(ownAtBottom / own).toBeLessThan(0.3);
  });

  it("rates with the request's own texts when no corpus is stored", async () => {
    const local = Ai.localProvider({ corpus: async () => undefined });
    const defi = { title: 'Isolated lending markets for DeFi protocols', summary: '' };
    const art = { title: 'A generative art series sells out', summary: '' };
    const clues = ['I build DeFi protocols'];
    expect((await rate(local, defi, clues)).score).toBeGreaterThan(
      (await rate(local, art, clues)).score,
    );
  });
});

describe('a web3 reader in their own words, against every demo story', () => {
  // The shipped development set's candidates are the demo's stories: its posts and feed articles.
  const [first] = readFileSync(
    new URL('../../../scripts/eval/web3-readers.jsonl', import.meta.url),
    'utf8',
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { candidates: Ai.ArticleInput[] });
  const stories = first!.candidates;
  const provider = Ai.localProvider({
    corpus: async () => Ai.buildCorpus(stories, vectors),
  });
  const topTen = async (clues: string[]) => {
    const rated = await Promise.all(
      stories.map(async (story) => ({ story, answer: await rate(provider, story, clues) })),
    );
    return rated.sort((a, b) => b.answer.score - a.answer.score).slice(0, 10);
  };

  it('puts the security stories that share no word with the clues in the top 10, and no off-topic story', async () => {
    const top = await topTen([
      'I build DeFi lending on Ethereum, with a focus on smart-contract security',
      'I research smart contract security: audits, exploits and formal verification',
    ]);
    const titles = top.map(({ story }) => story.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Storage collisions in upgradeable proxies: a field guide',
        'Signature replay across chains: the permit edge cases',
      ]),
    );
    for (const offTopic of [
      /^Treasury management for DAOs/,
      /^Client diversity on Solana/,
      /^Solana validators approve a 20% cut in inflation/,
      /^Broker reporting rules, explained/,
      /^How to write a comment letter/,
    ])
      expect(titles.filter((title) => offTopic.test(title))).toEqual([]);
    // Each reason names something of its own story and a phrase of a clue, never a clue whole.
    for (const { story, answer } of top) {
      expect(answer.reason).toMatch(/^It covers .+, for your clue on .+\.$/);
      const topic = /^It covers (.+), for your clue/.exec(answer.reason)![1]!;
      const storyWords = new Set(
        `${story.title} ${story.summary}`.toLowerCase().match(/[\p{L}\d-]+/gu),
      );
      expect(
        topic
          .toLowerCase()
          .match(/[\p{L}\d-]+/gu)!
          .some((word) => storyWords.has(word)),
      ).toBe(true);
      expect(answer.reason).not.toContain('I build DeFi lending on Ethereum');
      expect(answer.reason).not.toContain('I research smart contract security');
    }
  }, 60_000);

  it("reads readers' words: dollar tokens are stablecoins, front-running bots are MEV", async () => {
    const stablecoins = await topTen(['I hold dollar tokens and want to know if they are safe']);
    expect(
      stablecoins
        .slice(0, 5)
        .map(({ story }) => story.title)
        .join(' | '),
    ).toMatch(/[Ss]tablecoin|reserve/);
    const mev = await topTen(['I run front-running bots']);
    expect(
      mev
        .slice(0, 5)
        .map(({ story }) => story.title)
        .join(' | '),
    ).toMatch(/MEV|[Bb]ackrun|[Bb]undle|[Oo]rder flow|builder/);
  }, 60_000);
});
