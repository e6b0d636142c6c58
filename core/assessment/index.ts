// Audience name assessment: how well a clue ("I am one of those who ... build DeFi lending
// protocols") describes a reader narrowly enough to pick stories, as the spec's score text, rank,
// reasoning and suggestions. Asked of the configured gpt model with the current prompt of the
// 'audience-name-assessment' automation; answers are cached per identical clue, prompt and model.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import { freeText, parse, VisibleError } from '#core/common';
import { logger } from '#core/logs';
import * as Prompts from '#core/prompts';
import * as RateLimit from '#core/rate-limit';
import { AssessmentAnswerEntity } from './entity';

export { AssessmentAnswerEntity };

export const AUTOMATION_ID = 'audience-name-assessment';
/** How long a cached answer is used (and kept) before the model is asked again. */
export const CACHE_TTL_SECONDS = 7 * 86_400;

/**
 * Public assessments per address: a funnel visitor evaluates a handful of clues, and each uncached
 * one is a paid model call, so 30 per 10 minutes serves people and stops a script (ADR 0014).
 */
export const LIMIT_PER_IP: RateLimit.Limit = {
  bucket: 'assessment-ip',
  max: 30,
  windowSeconds: 600,
};

/**
 * Public model calls from every address together: ten visitors' worth at the per-address pace, so
 * a script spread over many addresses costs a bounded amount (ADR 0047). Answers from the cache
 * do not count: a known clue is assessed even while the budget is spent.
 */
export const PUBLIC_BUDGET: RateLimit.Limit = {
  bucket: 'assessment-all',
  max: 300,
  windowSeconds: 600,
};
/** The budget is one count for everyone. */
const EVERYONE = 'all';

export const ASSESSMENT_MESSAGES = {
  clueRequired: 'Please type a clue to assess',
  clueTooLong: 'A clue has at most 300 characters',
  prefixTooLong: 'A sentence starter has at most 200 characters',
  pointerTooLong: 'A pointer has at most 200 characters',
  unavailable: 'We could not assess this clue right now. Please try again in a minute.',
  busy: 'We are assessing too many clues right now. Please try again in a few minutes.',
} as const;

/** Collapses runs of whitespace (line breaks included) and trims: what the model is shown. */
const tidy = (text: string) => text.normalize('NFKC').replace(/\s+/g, ' ').trim();

/** The product's free-text rule on one line, then NFKC (what `tidy` gives the model and the cache). */
const Text = (max: number, tooLong: string, missing: string) =>
  v.pipe(
    freeText({ max, tooLong, missing, lines: 'collapse' }),
    v.transform((text) => text.normalize('NFKC')),
  );

export const AssessmentInput = v.object({
  prefix: v.optional(
    Text(200, ASSESSMENT_MESSAGES.prefixTooLong, 'The sentence starter must be text'),
    '',
  ),
  pointer: v.optional(Text(200, ASSESSMENT_MESSAGES.pointerTooLong, 'The pointer must be text')),
  // Optional only so that a missing clue gets the same message as a blank one.
  audienceName: v.pipe(
    v.optional(Text(300, ASSESSMENT_MESSAGES.clueTooLong, ASSESSMENT_MESSAGES.clueRequired), ''),
    v.nonEmpty(ASSESSMENT_MESSAGES.clueRequired),
  ),
});
export type AssessmentInput = v.InferInput<typeof AssessmentInput>;

export type Assessment = {
  score: string;
  rank: Ai.Rank;
  reasoning: string;
  suggestions: string[];
  /** The model's text as received (the admin shows it). */
  raw: string;
  /** Whether the answer came from the cache rather than the model. */
  cached: boolean;
};

/**
 * The cache key of an input: case and whitespace do not make a clue different, so "Build  DeFi"
 * and "build defi" share one answer. The parts are JSON-encoded so no separator can be forged.
 */
export function inputHash(input: { prefix: string; pointer?: string; audienceName: string }) {
  const key = [input.prefix, input.pointer ?? '', input.audienceName].map((part) =>
    tidy(part).toLowerCase(),
  );
  return createHash('sha256').update(JSON.stringify(key)).digest('hex');
}

async function cachedAnswer(key: { inputHash: string; promptId: string; modelId: string }) {
  const { data } = await AssessmentAnswerEntity.get(key).go();
  // TTL deletion lags (up to days on AWS): an expired item is a miss the moment it expires.
  return data && data.expiresAt > Date.now() / 1000 ? data : undefined;
}

/**
 * Assesses a clue; an AI failure, or no answer within the in-request budget (or before `signal`
 * aborts, e.g. the visitor went away), is a 503 VisibleError: the caller may simply try again.
 * With a `budget` (the public API's), a model call is counted against it first, and refused with
 * a 429 once spent.
 */
export async function assess(
  rawInput: AssessmentInput,
  options: { signal?: AbortSignal; budget?: RateLimit.Limit } = {},
): Promise<Assessment> {
  const input = parse(AssessmentInput, rawInput);
  const pointer = input.pointer || undefined;
  const [model, prompt] = await Promise.all([
    Ai.configured('gpt'),
    Prompts.current(AUTOMATION_ID),
  ]).catch((error: unknown) => {
    throw unavailable(error);
  });
  const key = {
    inputHash: inputHash({ ...input, pointer }),
    promptId: prompt.id,
    modelId: model.id,
  };
  const known = await cachedAnswer(key);
  if (known) {
    const { score, rank, reasoning, suggestions, raw } = known;
    return { score, rank, reasoning, suggestions: suggestions ?? [], raw, cached: true };
  }

  if (options.budget && !(await RateLimit.attempt(options.budget, EVERYONE)).allowed)
    throw new VisibleError('assessment.busy', ASSESSMENT_MESSAGES.busy, 429);

  const taskInput = { prefix: input.prefix, pointer, audienceName: input.audienceName };
  let completion: Ai.Completion<Ai.AssessmentAnswer>;
  try {
    completion = await Ai.ai().complete({
      model,
      task: Ai.audienceNameAssessment,
      input: taskInput,
      user: Prompts.render(prompt, taskInput),
      signal: options.signal,
      budgetMs: Ai.IN_REQUEST_BUDGET_MS,
    });
  } catch (error) {
    throw unavailable(error, options.signal?.aborted);
  }
  const { score, reasoning, suggestions } = completion.answer;
  const answer = { score, rank: Ai.rankOf(score), reasoning, suggestions, raw: completion.raw };
  const now = Date.now();
  await AssessmentAnswerEntity.put({
    ...key,
    ...taskInput,
    ...answer,
    inputTokens: completion.usage.inputTokens,
    outputTokens: completion.usage.outputTokens,
    costUsd: completion.usage.costUsd,
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + CACHE_TTL_SECONDS,
  }).go();
  return { ...answer, cached: false };
}

/** An AI failure (or an abandoned call) as the visible 503; anything else is a bug and passes. */
function unavailable(error: unknown, aborted = false): unknown {
  if (!Ai.isAiError(error) && !aborted) return error;
  logger.error('Audience name assessment failed', {
    error,
    code: Ai.isAiError(error) ? error.code : 'aborted',
  });
  return new VisibleError('assessment.unavailable', ASSESSMENT_MESSAGES.unavailable, 503, {
    cause: error,
  });
}
