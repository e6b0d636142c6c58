// The local ranker as readers meet it, through the provider: a reading history is a profile (its
// categories count, and a story on the same topic in other words ranks high), scores spread over
// the five labels, and the statistics come from a corpus of the product's articles.
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
