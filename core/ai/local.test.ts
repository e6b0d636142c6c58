import { describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import { posts } from '#scripts/seed/data';

const gpt = { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt };
const local = Ai.localProvider();

const postsOf = (audience: string) =>
  posts.filter((p) => p.audience === audience).map((p) => ({ title: p.title, summary: p.teaser }));

async function relevance(article: Ai.ArticleInput, clues: string[]) {
  const { answer } = await local.complete({
    model: gpt,
    task: Ai.articleRelevance,
    input: { article, clues },
    user: 'unused by the local provider',
  });
  return answer;
}

describe('local provider', () => {
  it('scores seed DeFi posts higher for "I build DeFi protocols" than for "I collect generative art"', async () => {
    const defi = postsOf('defi-builders');
    expect(defi.length).toBeGreaterThan(3);
    let higher = 0;
    for (const article of defi) {
      const builder = await relevance(article, ['I build DeFi protocols']);
      const collector = await relevance(article, ['I collect generative art']);
      if (builder.score > collector.score) higher++;
    }
    expect(higher / defi.length).toBeGreaterThanOrEqual(0.75);
  });

  it('scores seed generative-art posts higher for the collector', async () => {
    for (const article of postsOf('genart-collectors').slice(0, 4)) {
      const builder = await relevance(article, ['I build DeFi protocols']);
      const collector = await relevance(article, ['I collect generative art']);
      expect(collector.score).toBeGreaterThan(builder.score);
    }
  });

  it('answers with a label matching its score, a reason and the matched clues', async () => {
    const answer = await relevance(
      {
        title: 'Five invariants every DeFi lending protocol should fuzz',
        summary: 'Fuzzing DeFi protocols.',
      },
      ['I build DeFi protocols', 'I collect generative art'],
    );
    expect(answer.score).toBeGreaterThan(0.55);
    expect(answer.label).toBe(Ai.labelOf(answer.score));
    expect(answer.relevantClues).toEqual(['I build DeFi protocols']);
    expect(answer.reason).toBe(
      'It covers every DeFi lending protocol, for your clue on DeFi protocols.',
    );
  });

  it('writes the reason in the shape the relevance task asks every provider for', async () => {
    // One sentence: what in the article matches, then a phrase of the clue it serves.
    const shape = /^It [^.]+, for your clue on [^.]+\.$/;
    const asked = [
      Ai.articleRelevance.system,
      JSON.stringify(Ai.articleRelevance.jsonSchema),
      Ai.articleRelevanceBatch.system,
    ];
    for (const text of asked) {
      const example = /e\.g\. '([^']+)'/.exec(text)?.[1];
      expect(example, text).toMatch(shape);
    }
    const answer = await relevance(
      { title: 'Solana validators approve a 20% cut in inflation', summary: '' },
      ['I run Solana validators'],
    );
    expect(answer.reason).toMatch(shape);
    expect(answer.reason).toContain('for your clue on Solana validators');
  });

  it('is deterministic', async () => {
    const article = { title: 'Oracle latency is a design parameter', summary: 'Lending markets.' };
    expect(await relevance(article, ['I build DeFi protocols'])).toEqual(
      await relevance(article, ['I build DeFi protocols']),
    );
  });

  it('rates several audiences in one batch call', async () => {
    const { answer } = await local.complete({
      model: gpt,
      task: Ai.articleRelevanceBatch,
      input: {
        article: { title: 'Checking provenance before you collect generative art', summary: '' },
        audiences: [
          { id: 'defi', clues: ['I build DeFi protocols'] },
          { id: 'art', clues: ['I collect generative art'] },
        ],
      },
      user: '',
    });
    expect(answer.results.map((r) => r.audienceId)).toEqual(['defi', 'art']);
    expect(answer.results[1]!.score).toBeGreaterThan(answer.results[0]!.score);
  });

  it('assesses a broad clue low and a specific one high, with the spec rank mapping', async () => {
    const assess = async (audienceName: string) =>
      (
        await local.complete({
          model: gpt,
          task: Ai.audienceNameAssessment,
          input: { prefix: 'I am one of those who', audienceName },
          user: '',
        })
      ).answer;
    const broad = await assess('like crypto');
    const specific = await assess(
      'build DeFi lending protocols with isolated markets on Ethereum rollups',
    );
    expect(Ai.RANKS.indexOf(Ai.rankOf(broad.score))).toBeLessThan(
      Ai.RANKS.indexOf(Ai.rankOf(specific.score)),
    );
    expect(Ai.rankOf(specific.score)).toMatch(/HIGH/);
    expect(specific.reasoning.length).toBeGreaterThan(10);
    const middling = await assess('build DeFi protocols');
    expect(middling.suggestions.length).toBeGreaterThan(0);
    expect(middling.suggestions).toEqual(['build DeFi lending protocols']);
  });

  it('maps score text to the spec ranks', () => {
    expect(Ai.rankOf('super insightful')).toBe('VERY_HIGH');
    expect(Ai.rankOf('Very insightful')).toBe('HIGH');
    expect(Ai.rankOf('moderately insightful')).toBe('OK');
    expect(Ai.rankOf('slightly insightful')).toBe('LOW');
    expect(Ai.rankOf('whatever')).toBe('VERY_LOW');
  });

  it('embeds similar texts closer than unrelated ones', async () => {
    const { vectors } = await local.embed({
      model: { id: 'local:cluefeed-hashed-256', ...Ai.LOCAL_MODELS.embeddings },
      texts: [
        'DeFi lending protocol risk',
        'risk in a DeFi lending protocol',
        'generative art series',
      ],
    });
    const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    expect(vectors[0]).toHaveLength(256);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(cosine(vectors[0]!, vectors[2]!));
  });

  it('reads clue changes out of an assistant conversation', async () => {
    const { answer } = await local.complete({
      model: gpt,
      task: Ai.assistantClues,
      input: { category: 'change_clues', currentClues: ['I collect generative art'] },
      history: [
        { role: 'user', content: 'I run Solana validators. I am no longer into generative art.' },
      ],
      user: '',
    });
    expect(answer).toEqual({
      cluesToBeAdded: ['I run Solana validators'],
      cluesToBeRemoved: ['I collect generative art'],
      cluesToRemain: [],
      mutesToBeAdded: [],
      mutesToBeRemoved: [],
    });
  });

  it('refuses a task it has no method for', async () => {
    const task = { ...Ai.articleRelevance, name: 'write-a-poem' };
    await expect(
      local.complete({
        model: gpt,
        task,
        input: { article: { title: '', summary: '' }, clues: ['x'] },
        user: '',
      }),
    ).rejects.toBeInstanceOf(Ai.AiUnsupportedTask);
  });

  it('routes a local model through ai() without any key', async () => {
    const reply = await Ai.ai().chat({
      model: gpt,
      system: '',
      messages: [{ role: 'user', content: 'I design wallet onboarding flows.' }],
    });
    expect(reply.message).toMatch(/^Noted: you design wallet onboarding flows\. /);
    expect(reply.usage.costUsd).toBe(0);
  });
});

describe('AI model records', () => {
  it('lists models by provider then model and refuses a duplicate', async () => {
    const suffix = Date.now().toString(36);
    await Ai.create({ provider: 'openai', model: `gpt-z-${suffix}`, modelType: 'gpt' });
    await Ai.create({
      provider: 'openai-compatible',
      model: `llama-${suffix}`,
      modelType: 'gpt',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
    await Ai.create({ provider: 'openai', model: `gpt-a-${suffix}`, modelType: 'gpt' });
    const names = (await Ai.list('gpt')).map(Ai.displayName).filter((n) => n.includes(suffix));
    expect(names).toEqual([
      `openai - gpt-a-${suffix}`,
      `openai - gpt-z-${suffix}`,
      `openai-compatible - llama-${suffix}`,
    ]);
    await expect(
      Ai.create({ provider: 'openai', model: `gpt-a-${suffix}`, modelType: 'gpt' }),
    ).rejects.toMatchObject({ code: 'ai_model.exists', status: 409 });
  });

  it('refuses an OpenAI-compatible model without a base URL', async () => {
    await expect(
      Ai.create({ provider: 'openai-compatible', model: 'qwen', modelType: 'gpt' }),
    ).rejects.toMatchObject({
      code: 'input.invalid',
      message: 'An OpenAI-compatible model needs the base URL of its server',
    });
  });

  it('refuses a base URL for an OpenAI model, which would send the OpenAI key to that server ', async () => {
    // provider 'openai' is sent OPENAI_API_KEY (the SST secret); a base URL routes it elsewhere.
    await expect(
      Ai.create({
        provider: 'openai',
        model: `gpt-4o-mini-${Date.now().toString(36)}`,
        modelType: 'gpt',
        baseUrl: 'http://collector.example/v1',
      }),
    ).rejects.toMatchObject({ code: 'input.invalid', status: 400 });
  });

  it('defaults jobs to the local models', async () => {
    expect(await Ai.configured('gpt')).toMatchObject({ provider: 'local', model: 'cluefeed-bm25' });
    expect(await Ai.configured('embeddings')).toMatchObject({ modelType: 'embeddings' });
  });
});
