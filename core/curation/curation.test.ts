import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as AiPort from '#core/ai';
import * as Articles from '#core/articles';
import * as ContentCards from '#core/content-cards';
import * as Curation from '#core/curation';
import { logger } from '#core/logs';
import * as Posts from '#core/posts';
import { SlugClaimEntity } from '#core/slugs';
import * as Stories from '#core/stories';
import { createAudience } from '#tests/integration/factories';
import { startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import * as Scoring from '#core/scoring';

const log = logger.child({ test: 'curation' });
const hour = (n: number) => new Date(Date.UTC(2026, 10, 20, n)).toISOString();

/** Production's setup here: the built-in scoring prompt and the local model. */
const CURRENT = { promptId: 'default-scoring', modelId: 'local:cluefeed-bm25' };

type Story = {
  title: string;
  summary?: string;
  score: number;
  publishedAt?: string;
  source?: string;
};

/** An imported article and its score for the audience, as an import and a scoring run leave them. */
async function scoredArticle(audience: { id: string; title: string }, story: Story) {
  const key = ulid().toLowerCase();
  const publishedAt = story.publishedAt ?? hour(8);
  // Through the import's own write, so the article counter stays true for other tests.
  await Articles.storeIfNew({
    canonicalUrl: `https://news.example.org/${key}`,
    title: story.title,
    summary: story.summary ?? `<p>${story.title}, explained for builders.</p>`,
    content: 'word '.repeat(700),
    publishedAt,
    source: story.source ?? 'Example News',
    streamId: 'stream-1',
    fingerprint: createHash('sha256').update(key).digest('hex'),
  });
  const article = (await Articles.byUrl(`https://news.example.org/${key}`))!;
  const id = article.id;
  await Scoring.storeScore(id, Scoring.audienceTarget(audience), CURRENT, {
    label: AiPort.labelOf(story.score),
    score: story.score,
    reason: `It is about ${story.title}.`,
    relevantClues: ['build DeFi protocols'],
    publishedAt,
    processId: ulid(),
    inputTokens: 0,
    outputTokens: 0,
  });
  return article;
}

const DEFI_STORIES: Story[] = [
  { title: 'Five invariants every lending protocol should fuzz', score: 0.91 },
  { title: 'Oracle latency is a design parameter for perpetual exchanges', score: 0.82 },
  { title: 'Isolated lending markets and the return of the risk curator', score: 0.74 },
  { title: 'Writing your first AMM hook in Solidity', score: 0.63 },
  { title: 'Designing a fee switch that survives governance votes', score: 0.58 },
  { title: 'A generative art collection sells out in minutes', score: 0.3 },
  { title: 'Celebrity NFT drops return to the charts', score: 0.05 },
];

async function audienceWith(stories: Story[], state: 'active' | 'upcoming' = 'active') {
  const audience = await createAudience({ state });
  const articles = [];
  for (const story of stories) articles.push(await scoredArticle(audience, story));
  return { audience, articles };
}

const allPicks = (audienceId: string) =>
  Curation.picksForAudience(audienceId, { from: hour(0), to: '2100-01-01T00:00:00.000Z' });

/** An Ai that counts the calls it passes on to the local provider. */
function countingAi() {
  const inner = AiPort.localProvider();
  const counter = {
    calls: 0,
    ai: {
      ...inner,
      complete: (request) => {
        counter.calls++;
        return inner.complete(request);
      },
    } as AiPort.Ai,
  };
  return counter;
}

describe('pick best content for an audience', () => {
  it('picks the best-scored articles, primary first, from Moderately Relevant up', async () => {
    const { audience, articles } = await audienceWith(DEFI_STORIES);
    const processId = ulid();
    const result = await Curation.pickForAudience(audience, { processId, log });

    expect(result.outcome).toBe('picked');
    expect(result.articleIds).toEqual(articles.slice(0, 4).map((a) => a.id));
    const picks = await allPicks(audience.id);
    expect(picks.map((p) => p.articleId).sort()).toEqual(result.articleIds.slice().sort());
    const primaryPick = picks.find((p) => p.articleId === articles[0]!.id)!;
    expect(primaryPick).toMatchObject({
      score: 0.91,
      label: 'Very Relevant',
      relevantClues: ['build DeFi protocols'],
      contentCardId: result.contentCardId,
      processId,
      isArchived: false,
      isPickedForFeed: true,
    });
    const post = await Posts.byId(primaryPick.postId);
    expect(post).toMatchObject({
      title: articles[0]!.title,
      teaser: `${articles[0]!.title}, explained for builders.`,
      audienceId: audience.id,
      author: Curation.CURATOR,
      link: { url: articles[0]!.canonicalUrl, domain: 'news.example.org' },
      minutes: 4,
      // Readers see why it was picked: the reason of the score that earned the pick.
      reason: primaryPick.reason,
    });
    expect(primaryPick.reason).toBe(`It is about ${articles[0]!.title}.`);
  });

  it('builds a card the audience page query returns with its stories', async () => {
    const { audience, articles } = await audienceWith(DEFI_STORIES);
    const result = await Curation.pickForAudience(audience, { processId: ulid(), log });

    const { cards } = await ContentCards.pageForAudience(audience.id, { limit: 5 });
    expect(cards).toHaveLength(1);
    const [card] = cards;
    expect(card!.id).toBe(result.contentCardId);
    expect(card!.primaryStory.link?.url).toBe(articles[0]!.canonicalUrl);
    expect(card!.secondaryStories.map((post) => post.link?.url)).toEqual(
      articles.slice(1, 4).map((a) => a.canonicalUrl),
    );
    expect(card!.primaryStoriesHeader).toMatch(/lending protocol/i);
    expect(card!.verbalDescriptor).toContain('those who build DeFi protocols');
  });

  it('skips an audience without good candidates, and says why', async () => {
    const { audience } = await audienceWith(DEFI_STORIES.slice(5));
    const empty = await createAudience();
    for (const candidate of [audience, empty]) {
      const result = await Curation.pickForAudience(candidate, { processId: ulid(), log });
      expect(result).toMatchObject({ outcome: 'skipped', articleIds: [] });
      expect(result.note).toContain(Curation.NO_CANDIDATES);
      expect((await ContentCards.pageForAudience(candidate.id, { limit: 5 })).cards).toEqual([]);
    }
  });

  it('never picks the same article twice for an audience across runs', async () => {
    const { audience, articles } = await audienceWith(DEFI_STORIES);
    const first = await Curation.pickForAudience(audience, { processId: ulid(), log });
    const second = await Curation.pickForAudience(audience, { processId: ulid(), log });
    const third = await Curation.pickForAudience(audience, { processId: ulid(), log });

    expect(first.articleIds).toHaveLength(4);
    expect(second.articleIds).toEqual([articles[4]!.id]);
    expect(third.outcome).toBe('skipped');
    expect(await allPicks(audience.id)).toHaveLength(5);
    const { cards } = await ContentCards.pageForAudience(audience.id, { limit: 5 });
    expect(cards.map((card) => card.id).sort()).toEqual(
      [first.contentCardId, second.contentCardId].sort(),
    );
  });

  it('offers one source of a story, and none of it once a source was picked for the audience', async () => {
    const audience = await createAudience();
    const lead = await scoredArticle(audience, {
      title: 'Lendora lending protocol drained of $12 million in oracle manipulation exploit',
      summary:
        'Attackers manipulated the price oracle of Lendora, a lending protocol on Arbitrum, and drained $12 million from its pools on Tuesday. The team paused all markets.',
      score: 0.95,
    });
    const echo = await scoredArticle(audience, {
      title:
        'Lendora exploit: attacker drains $12 million from Arbitrum lending protocol via oracle manipulation',
      summary:
        'The Lendora lending protocol on Arbitrum lost $12 million on Tuesday after an attacker manipulated its price oracle. Lendora has paused all markets.',
      score: 0.93,
      // Another outlet: an outlet's own follow-up is not another source.
      source: 'Chain Desk',
    });
    const others = [];
    for (const story of DEFI_STORIES.slice(0, 3)) others.push(await scoredArticle(audience, story));
    await Stories.joinArticles([lead, echo, ...others].map((article) => article.id));
    const [leadJoined, echoJoined] = await Articles.byIds([lead.id, echo.id]);
    expect(echoJoined!.storyId).toBe(leadJoined!.storyId);

    const first = await Curation.pickForAudience(audience, { processId: ulid(), log });
    expect(first.articleIds).toEqual([lead.id, ...others.map((article) => article.id)]);
    const [card] = (await ContentCards.pageForAudience(audience.id, { limit: 5 })).cards;
    expect(card!.postArticles).toHaveLength(4);
    expect(card!.primaryStory).toMatchObject({
      storyKey: leadJoined!.storyId,
      alsoCovered: { count: 1, sources: [{ source: 'Chain Desk', url: echo.canonicalUrl }] },
    });
    expect(card!.secondaryStories.map((story) => story.alsoCovered)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);

    // Its other source is still unpicked, but the story was picked: nothing is left to offer.
    const second = await Curation.pickForAudience(audience, { processId: ulid(), log });
    expect(second).toMatchObject({ outcome: 'skipped', articleIds: [] });
  });

  it('creates nothing new when the same run is repeated, and finishes what a crash left', async () => {
    const { audience } = await audienceWith(DEFI_STORIES);
    const processId = ulid();
    const counter = countingAi();
    const first = await Curation.pickForAudience(audience, { processId, log, ai: counter.ai });
    const again = await Curation.pickForAudience(audience, { processId, log, ai: counter.ai });

    expect(again).toEqual(first);
    expect(counter.calls).toBe(1);
    expect((await ContentCards.pageForAudience(audience.id, { limit: 5 })).cards).toHaveLength(1);
    expect(await Posts.byAudience(audience.id, 20)).toHaveLength(4);
    expect(await allPicks(audience.id)).toHaveLength(4);

    // A crash after the picks but before the card and one post: the redelivery finishes both.
    const card = (await ContentCards.byId(first.contentCardId!))!;
    await ContentCards.ContentCardEntity.delete({ id: card.id }).go();
    const lost = (await Posts.byId(card.secondaryStoryIds![0]!))!;
    await Posts.PostEntity.delete({ id: lost.id }).go();
    await SlugClaimEntity.delete({ kind: 'post', slug: lost.slug }).go();
    const redelivered = await Curation.pickForAudience(audience, {
      processId,
      log,
      ai: counter.ai,
    });
    expect(redelivered).toEqual(first);
    expect(counter.calls).toBe(1);
    const restored = await ContentCards.byId(first.contentCardId!);
    expect(restored).toMatchObject({
      primaryStoryId: card.primaryStoryId,
      secondaryStoryIds: card.secondaryStoryIds,
      verbalDescriptor: card.verbalDescriptor,
    });
    expect(restored!.secondaryStories).toHaveLength(3);
    expect(await Posts.byAudience(audience.id, 20)).toHaveLength(4);
  });

  it('runs over active audiences only and reports cards, picks, skips and usage', async () => {
    const { audience } = await audienceWith(DEFI_STORIES);
    const { audience: upcoming } = await audienceWith(DEFI_STORIES, 'upcoming');
    const { audience: weak } = await audienceWith(DEFI_STORIES.slice(5));
    const notes: string[] = [];
    const output = (await Curation.pickBestContent.run(
      {},
      {
        processId: ulid(),
        systemUserId: 'test',
        log,
        progress: async (_fraction, note) => void notes.push(note ?? ''),
      },
    )) as Curation.PickBestContentOutput;

    expect(output.cards).toBeGreaterThanOrEqual(1);
    expect(output.picks).toBeGreaterThanOrEqual(4);
    expect(output.skipped).toBeGreaterThanOrEqual(1);
    expect(output.audiences).toBe(notes.length);
    expect(output.inputTokens).toBeGreaterThan(0);
    expect(output.costUsd).toBe(0);
    expect(notes).toContain(`Picked 4 stories for ${audience.title}`);
    expect(notes).toContain(`Skipped ${weak.title}: ${Curation.NO_CANDIDATES}`);
    expect((await ContentCards.pageForAudience(audience.id, { limit: 5 })).cards).toHaveLength(1);
    expect((await ContentCards.pageForAudience(upcoming.id, { limit: 5 })).cards).toEqual([]);
  });
});

describe('picks for the newsletter', () => {
  it("reads an audience's picks within a time window, without archived or unfed ones", async () => {
    const { audience } = await audienceWith(DEFI_STORIES);
    await Curation.pickForAudience(audience, { processId: ulid(), log });
    const picks = await allPicks(audience.id);
    expect(picks).toHaveLength(4);
    const [archived, unfed] = picks;
    await Curation.PickEntity.patch(archived!).set({ isArchived: true }).go();
    await Curation.PickEntity.patch(unfed!).set({ isPickedForFeed: false }).go();

    const kept = await allPicks(audience.id);
    expect(kept.map((p) => p.articleId).sort()).toEqual(
      picks
        .slice(2)
        .map((p) => p.articleId)
        .sort(),
    );
    const pickedAt = picks[0]!.pickedAt;
    expect(await Curation.picksForAudience(audience.id, { from: hour(0), to: pickedAt })).toEqual(
      [],
    );
    expect(
      await Curation.picksForAudience(audience.id, {
        from: pickedAt,
        to: '2100-01-01T00:00:00Z',
        limit: 1,
      }),
    ).toHaveLength(1);
    await expect(
      Curation.picksForAudience(audience.id, { from: 'yesterday', to: pickedAt }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('an answer the model gets wrong', () => {
  let fake: FakeOpenAi;
  let defaultAnswer: FakeOpenAi['answer'];
  const model: AiPort.AiModelRef = {
    id: 'openai:gpt-4o-mini',
    provider: 'openai',
    model: 'gpt-4o-mini',
    modelType: 'gpt',
  };
  const openAi = () =>
    AiPort.openAiProvider({
      apiKey: fake.apiKey,
      baseUrl: fake.url,
      timeoutMs: 5_000,
      retry: {
        maxRetries: 0,
        baseDelayMs: 1,
        maxDelayMs: 1,
        sleep: async () => {},
        random: () => 1,
      },
    });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    defaultAnswer = fake.answer;
  });
  afterAll(() => fake.stop());

  const answerWith = (answer: Partial<AiPort.PickAnswer>) => {
    fake.answer = () => ({
      primaryId: '1',
      secondaryIds: [],
      primaryStoriesHeader: 'Lending, fuzzed',
      secondaryStoriesHeader: 'Also this week',
      verbalDescriptor: 'Safer lending starts with better tests.',
      ...answer,
    });
  };

  it('records malformed JSON and skips the audience without dying', async () => {
    fake.answer = defaultAnswer;
    const { audience } = await audienceWith(DEFI_STORIES);
    const processId = ulid();
    fake.script({ content: '{"primaryId": "1", ' });
    const result = await Curation.pickForAudience(audience, {
      processId,
      log,
      ai: openAi(),
      model,
    });

    expect(result.outcome).toBe('failed');
    expect(result.note).toContain('not JSON');
    const { data: run } = await Curation.PickRunEntity.get({
      audienceId: audience.id,
      processId,
    }).go();
    expect(run).toMatchObject({ outcome: 'failed', raw: '{"primaryId": "1", ', modelId: model.id });
    expect((await ContentCards.pageForAudience(audience.id, { limit: 5 })).cards).toEqual([]);
    expect(await allPicks(audience.id)).toEqual([]);

    const request = fake.requests.at(-1)!.body as {
      messages: { role: string; content: string }[];
      response_format: { json_schema: { name: string; strict: boolean } };
    };
    expect(request.response_format.json_schema).toMatchObject({
      name: 'pick_best_content',
      strict: true,
    });
    const user = request.messages.at(-1)!.content;
    expect(user).toContain('Audience: those who build DeFi protocols');
    expect(user).toContain(
      '1. Five invariants every lending protocol should fuzz (id 1, score 0.91)',
    );
  });

  it('records a 200 without choices as a failed run with the body, and skips the audience', async () => {
    const { audience } = await audienceWith(DEFI_STORIES);
    const processId = ulid();
    fake.script({ body: '{"object":"chat.completion","choices":null}' });
    const result = await Curation.pickForAudience(audience, {
      processId,
      log,
      ai: openAi(),
      model,
    });

    expect(result.outcome).toBe('failed');
    expect(result.note).toContain('malformed at choices');
    const { data: run } = await Curation.PickRunEntity.get({
      audienceId: audience.id,
      processId,
    }).go();
    expect(run).toMatchObject({
      outcome: 'failed',
      raw: '{"object":"chat.completion","choices":null}',
    });
    expect(await allPicks(audience.id)).toEqual([]);
  });

  it('records a primary story that is not a candidate and skips the audience', async () => {
    const { audience } = await audienceWith(DEFI_STORIES);
    const processId = ulid();
    answerWith({ primaryId: '42' });
    const result = await Curation.pickForAudience(audience, {
      processId,
      log,
      ai: openAi(),
      model,
    });

    expect(result.outcome).toBe('failed');
    expect(result.note).toContain('"42" is not among the 5 candidates');
    const { data: run } = await Curation.PickRunEntity.get({
      audienceId: audience.id,
      processId,
    }).go();
    expect(run?.outcome).toBe('failed');
    expect(run?.inputTokens).toBeGreaterThan(0);
    expect(await allPicks(audience.id)).toEqual([]);
  });

  it('drops secondary ids that are not candidates and keeps the rest', async () => {
    const { audience, articles } = await audienceWith(DEFI_STORIES);
    answerWith({ primaryId: '2', secondaryIds: ['9', '2', '3', 'abc'] });
    const result = await Curation.pickForAudience(audience, {
      processId: ulid(),
      log,
      ai: openAi(),
      model,
    });

    expect(result.outcome).toBe('picked');
    expect(result.articleIds).toEqual([articles[1]!.id, articles[2]!.id]);
    const [card] = (await ContentCards.pageForAudience(audience.id, { limit: 5 })).cards;
    expect(card).toMatchObject({
      primaryStoriesHeader: 'Lending, fuzzed',
      verbalDescriptor: 'Safer lending starts with better tests.',
    });
    expect(card!.secondaryStories).toHaveLength(1);
  });
});

describe('the local pick-best-content method', () => {
  const gpt = { id: 'local:cluefeed-bm25', ...AiPort.LOCAL_MODELS.gpt };
  const candidates = [
    { id: 'a', title: 'Isolated lending markets and the risk curator', summary: '', score: 0.74 },
    {
      id: 'b',
      title: 'Five invariants every lending protocol should fuzz',
      summary: '',
      score: 0.91,
    },
    {
      id: 'c',
      title: 'Five invariants every lending protocol should fuzz today',
      summary: '',
      score: 0.9,
    },
    { id: 'd', title: 'Oracle latency for perpetual exchanges', summary: '', score: 0.82 },
    { id: 'e', title: 'Writing your first AMM hook', summary: '', score: 0.63 },
    { id: 'f', title: 'Designing a fee switch', summary: '', score: 0.58 },
  ];
  const ask = async (list: typeof candidates) =>
    (
      await AiPort.localProvider().complete({
        model: gpt,
        task: AiPort.pickBestContent,
        input: { audience: 'build DeFi protocols', clues: [], candidates: list },
        user: 'unused by the local provider',
      })
    ).answer;

  it('answers the same card every time: best score first, one story per news', async () => {
    const answer = await ask(candidates);
    expect(await ask(candidates)).toEqual(answer);
    expect(answer.primaryId).toBe('b');
    // 'c' tells the same news as 'b', so the next best stories follow instead.
    expect(answer.secondaryIds).toEqual(['d', 'a', 'e']);
    expect(answer.primaryStoriesHeader).toBe('Top story: lending protocol');
    expect(answer.secondaryStoriesHeader).toMatch(/^Also on /);
    expect(answer.verbalDescriptor).toMatch(
      /^Why lending protocol, .+ to those who build DeFi protocols\.$/,
    );
  });
});

describe("candidates beside other prompts' scores", () => {
  it("still finds the current prompt's good stories when prompt tests scored 200 newer pairs", async () => {
    const { audience, articles } = await audienceWith(DEFI_STORIES);
    // Prompt testing with ten saved prompts scores the 20 newest articles ten times each: 200
    // rows of other prompts, all published after the current prompt's scores above.
    await Promise.all(
      Array.from({ length: Curation.RECENT_SCORES }, (_, i) =>
        Scoring.storeScore(
          ulid(),
          Scoring.audienceTarget(audience),
          { ...CURRENT, promptId: `prompt-test-${i % 10}` },
          {
            label: 'Very Relevant',
            score: 0.9,
            reason: 'A prompt test.',
            relevantClues: [],
            publishedAt: hour(9 + (i % 5)),
            processId: ulid(),
            inputTokens: 0,
            outputTokens: 0,
          },
        ),
      ),
    );

    const result = await Curation.pickForAudience(audience, { processId: ulid(), log });

    expect(result.outcome).toBe('picked');
    expect(result.articleIds).toEqual(articles.slice(0, 4).map((a) => a.id));
  });
});
