import { ulid } from 'ulid';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Prompts from '#core/prompts';
import {
  ASSESSMENT_MESSAGES,
  AUTOMATION_ID,
  AssessmentAnswerEntity,
  CACHE_TTL_SECONDS,
  assess,
  inputHash,
} from './index';

const PREFIX = 'I am one of those who';
/** A clue no other test in this file uses, so each test starts without a cached answer. */
const fresh = (clue: string) => `${clue} ${ulid().toLowerCase().slice(-6)}`;

async function localModel() {
  return Ai.configured('gpt');
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function rejection(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('Assessment.assess', () => {
  it('ranks a narrow clue above a broad one, with reasoning and the spec rank of its score', async () => {
    const narrow = await assess({
      prefix: PREFIX,
      audienceName: 'build DeFi lending protocols on Ethereum',
    });
    const broad = await assess({ prefix: PREFIX, audienceName: 'like crypto' });

    const order = Ai.RANKS;
    expect(order.indexOf(narrow.rank)).toBeGreaterThan(order.indexOf(broad.rank));
    expect(narrow.rank).toBe(Ai.rankOf(narrow.score));
    expect(broad).toMatchObject({ score: 'not insightful', rank: 'VERY_LOW' });
    expect(narrow.reasoning).not.toBe('');
    expect(JSON.parse(narrow.raw)).toMatchObject({ score: narrow.score });
  });

  it('answers an identical clue from the cache without calling the model again', async () => {
    const clue = fresh('audit Solana programs');
    const complete = vi.spyOn(Ai.providerFor(await localModel()), 'complete');

    const first = await assess({ prefix: PREFIX, pointer: 'work on', audienceName: clue });
    const again = await assess({
      prefix: `  ${PREFIX.toUpperCase()} `,
      pointer: 'Work   on',
      audienceName: `\n${clue.toUpperCase()}  `,
    });

    expect(complete).toHaveBeenCalledTimes(1);
    expect(first.cached).toBe(false);
    expect(again).toEqual({ ...first, cached: true });
  });

  it('keeps the answer for seven days with the prompt and model that gave it', async () => {
    const clue = fresh('run MEV searching strategies');
    const before = Math.floor(Date.now() / 1000);
    await assess({ prefix: PREFIX, audienceName: clue });
    const model = await localModel();
    const prompt = await Prompts.current(AUTOMATION_ID);

    const { data } = await AssessmentAnswerEntity.get({
      inputHash: inputHash({ prefix: PREFIX, audienceName: clue }),
      promptId: prompt.id,
      modelId: model.id,
    }).go();
    expect(data).toMatchObject({ audienceName: clue, prefix: PREFIX });
    expect(data!.expiresAt).toBeGreaterThanOrEqual(before + CACHE_TTL_SECONDS);
    expect(data!.expiresAt).toBeLessThanOrEqual(before + CACHE_TTL_SECONDS + 5);
  });

  it('asks the model again once a cached answer has expired, before TTL deletes it', async () => {
    const clue = fresh('steward DAO governance');
    const model = await localModel();
    const prompt = await Prompts.current(AUTOMATION_ID);
    await AssessmentAnswerEntity.put({
      inputHash: inputHash({ prefix: PREFIX, audienceName: clue }),
      promptId: prompt.id,
      modelId: model.id,
      prefix: PREFIX,
      audienceName: clue,
      score: 'super insightful',
      rank: 'VERY_HIGH',
      reasoning: 'A stale answer.',
      suggestions: [],
      raw: '{}',
      createdAt: new Date(0).toISOString(),
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    }).go();

    const answer = await assess({ prefix: PREFIX, audienceName: clue });
    expect(answer.cached).toBe(false);
    expect(answer.reasoning).not.toBe('A stale answer.');
  });

  it('refuses a missing, blank or overlong clue and overlong starters with clear messages', async () => {
    const cases: [unknown, string][] = [
      [{ prefix: PREFIX }, ASSESSMENT_MESSAGES.clueRequired],
      [{ prefix: PREFIX, audienceName: ' \n ' }, ASSESSMENT_MESSAGES.clueRequired],
      [{ prefix: PREFIX, audienceName: 'a'.repeat(301) }, ASSESSMENT_MESSAGES.clueTooLong],
      [{ prefix: 'p'.repeat(201), audienceName: 'build' }, ASSESSMENT_MESSAGES.prefixTooLong],
      [
        { prefix: PREFIX, pointer: 'p'.repeat(201), audienceName: 'build' },
        ASSESSMENT_MESSAGES.pointerTooLong,
      ],
    ];
    for (const [input, message] of cases) {
      const error = await rejection(assess(input as Parameters<typeof assess>[0]));
      expect(error).toMatchObject({ name: 'VisibleError', status: 400, message });
    }
    await expect(
      assess({ prefix: PREFIX, audienceName: `  ${'a'.repeat(300)}  ` }),
    ).resolves.toMatchObject({ rank: expect.any(String) });
  });

  it('asks again when an editor adds a newer prompt', async () => {
    const clue = fresh('design wallet experiences');
    const complete = vi.spyOn(Ai.providerFor(await localModel()), 'complete');
    await assess({ prefix: PREFIX, audienceName: clue });
    const stricter = await Prompts.create({
      expImplementationId: AUTOMATION_ID,
      title: 'Stricter assessment',
      prompt: 'Judge strictly: "{prefix} {pointer} {audienceName}"',
    });
    // Files that share this worker's table expect the default prompt.
    onTestFinished(() => Prompts.disable({ id: stricter.id }));

    const again = await assess({ prefix: PREFIX, audienceName: clue });
    expect(again.cached).toBe(false);
    expect(complete).toHaveBeenCalledTimes(2);
    expect(complete.mock.calls[1]![0].user).toBe(`Judge strictly: "${PREFIX}  ${clue}"`);
  });
});

describe('the deadline and the web function', () => {
  it('gives up on the model before the web Lambda times out, so the caller gets the 503', async () => {
    const { IN_REQUEST_BUDGET_MS } = await import('#core/ai');
    const { readFileSync } = await import('node:fs');
    const stack = readFileSync(new URL('../../stacks/web.ts', import.meta.url), 'utf8');
    const seconds = Number(/timeout: '(\d+) seconds'/.exec(stack)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    // The rate limit, the prompt, model and cache reads and the cache write come on top of the
    // model's time: a deadline equal to the function's timeout ends in a 502/504, not the 503.
    expect(IN_REQUEST_BUDGET_MS).toBeLessThanOrEqual(seconds * 1000 - 3000);
  });
});
