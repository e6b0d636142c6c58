// The production scoring setup: the prompt version and the model whose scores scheduled scoring,
// picks, readers' feeds and newsletters read. Only an operator's promote on Content Automations
// changes it (logged, and a scoring run queued); saving or testing a prompt never does. Before the
// first promote it is what a fresh install scores with: the built-in scoring prompt and the
// configured gpt model (docs/decisions/0032-production-scoring-setup.md).
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Auth from '#core/auth';
import { fn, isVisibleError, VisibleError } from '#core/common';
import { isConditionFailure } from '#core/db';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';
import * as Prompts from '#core/prompts';

const { ProductionScoringEntity } = Prompts;
export { ProductionScoringEntity };

const SCORING = 'scoring';
/**
 * Prompts production may score with: its own, and a reader-scoring experiment's (the same
 * placeholders; descriptor scoring experiments keep theirs under 'scoring').
 */
const PROMOTABLE = new Set([SCORING, 'score-articles-per-user']);

export type ProductionSetup = {
  prompt: Pick<Prompts.Prompt, 'id' | 'prompt' | 'title'>;
  model: Ai.AiModelRef;
  /** How many promotes there have been (0: none yet); a promote names the one it replaces. */
  revision: number;
  promotedAt?: string;
  /** The admin (system user id) who promoted it. */
  promotedBy?: string;
};

type Stored = EntityItem<typeof ProductionScoringEntity>;

export const PRODUCTION_MESSAGES = {
  prompt: 'Please choose one of the saved scoring prompts',
  promptDeleted: 'This prompt was deleted: please choose another one',
  model: 'Please choose one of the gpt models',
  stale: 'This page is out of date: please load it again',
  already: 'Production scoring already uses this prompt and model',
};

/** Strongly consistent: the scoring run a promote queues must read that promote. */
async function stored(): Promise<Stored | undefined> {
  const { data } = await ProductionScoringEntity.get({}).go({ consistent: true });
  return data ?? undefined;
}

/** The setup production scores with and reads scores of. */
export async function productionSetup(): Promise<ProductionSetup> {
  return resolve(await stored());
}

async function resolve(item: Stored | undefined): Promise<ProductionSetup> {
  if (!item) {
    return { prompt: Prompts.builtIn(SCORING), model: await Ai.configured('gpt'), revision: 0 };
  }
  const [prompt, model] = await Promise.all([Prompts.byId(item.promptId), Ai.byId(item.modelId)]);
  // Neither leaves the table: a deleted prompt is only hidden, and AI models are never removed.
  if (!prompt || !model) {
    throw new Error(`Production scoring names ${item.promptId} and ${item.modelId}, not stored`);
  }
  const { promptId: _promptId, modelId: _modelId, ...promotion } = item;
  return {
    prompt: { id: prompt.id, title: prompt.title, prompt: prompt.prompt },
    model,
    ...promotion,
  };
}

/**
 * The setup in words. Before the first promote, AI_GPT_MODEL may name a model that is not among
 * the AI models (scoring fails until one is promoted): the words say so rather than throw.
 */
async function describeNow(): Promise<string> {
  return describe(await resolve(await stored()).catch(notConfigured));
}

function notConfigured(error: unknown): undefined {
  if (error instanceof Ai.AiNotConfigured) return undefined;
  throw error;
}

const describe = (setup: Pick<ProductionSetup, 'prompt' | 'model'> | undefined) =>
  setup
    ? `"${setup.prompt.title}" with ${Ai.displayName(setup.model)}`
    : `"${Prompts.builtIn(SCORING).title}" with a gpt model that is not among the AI models`;

function changed(now: string): VisibleError {
  return new VisibleError(
    'scoring.production_changed',
    `Production scoring changed meanwhile: it now uses ${now}. Look at it again before you promote.`,
    409,
  );
}

export const PromoteInput = v.object({
  promptId: v.pipe(
    v.string(PRODUCTION_MESSAGES.prompt),
    v.trim(),
    v.nonEmpty(PRODUCTION_MESSAGES.prompt),
    v.maxLength(100, PRODUCTION_MESSAGES.prompt),
  ),
  modelId: v.pipe(
    v.string(PRODUCTION_MESSAGES.model),
    v.trim(),
    v.nonEmpty(PRODUCTION_MESSAGES.model),
    v.maxLength(300, PRODUCTION_MESSAGES.model),
  ),
  systemUserId: v.pipe(v.string(), v.nonEmpty()),
  /** The revision the admin saw when they chose; absent: the one read here. */
  revision: v.optional(
    v.pipe(
      v.number(PRODUCTION_MESSAGES.stale),
      v.integer(PRODUCTION_MESSAGES.stale),
      v.minValue(0, PRODUCTION_MESSAGES.stale),
    ),
  ),
});

/**
 * Makes a saved scoring prompt and a gpt model the production setup. The write is conditioned on
 * the setup it replaces (its revision) and, in the same transaction, on the prompt not being
 * deleted: of two promotes decided from one setup, one lands and the other is told what changed.
 * Logged with who, from what and to what; then a scoring run is queued with the new setup.
 */
export const promote = fn(PromoteInput, async ({ promptId, modelId, systemUserId, revision }) => {
  const [item, prompt, model] = await Promise.all([
    stored(),
    Prompts.byId(promptId),
    Ai.byId(modelId),
  ]);
  if (!prompt || !PROMOTABLE.has(prompt.expImplementationId)) {
    throw new VisibleError('scoring.prompt_unknown', PRODUCTION_MESSAGES.prompt, 400);
  }
  if (prompt.isDeleted) {
    throw new VisibleError('scoring.prompt_deleted', PRODUCTION_MESSAGES.promptDeleted, 409);
  }
  if (!model || model.modelType !== 'gpt') {
    throw new VisibleError('scoring.model_unknown', PRODUCTION_MESSAGES.model, 400);
  }
  const current = item?.revision ?? 0;
  const before = await resolve(item).catch(notConfigured);
  if (revision !== undefined && revision !== current) throw changed(describe(before));
  if (before?.prompt.id === prompt.id && before.model.id === model.id) {
    throw new VisibleError('scoring.already_production', PRODUCTION_MESSAGES.already, 409);
  }

  const next: Stored = {
    promptId,
    modelId,
    revision: current + 1,
    promotedAt: new Date().toISOString(),
    promotedBy: systemUserId,
  };
  const written = await createWriteTransaction(
    { production: ProductionScoringEntity, prompt: Prompts.PromptEntity },
    (entities) => [
      item
        ? entities.production
            .put(next)
            .where((attr, op) => op.eq(attr.revision, item.revision))
            .commit()
        : entities.production.create(next).commit(),
      entities.prompt
        .check({ id: promptId })
        .where((attr, op) => op.eq(attr.isDeleted, false))
        .commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true };
      throw error;
    });
  if (written.canceled) {
    const [now, again] = await Promise.all([describeNow(), Prompts.byId(promptId)]);
    if (again?.isDeleted) {
      throw new VisibleError('scoring.prompt_deleted', PRODUCTION_MESSAGES.promptDeleted, 409);
    }
    throw changed(now);
  }

  const setup: ProductionSetup = {
    prompt: { id: prompt.id, title: prompt.title, prompt: prompt.prompt },
    model,
    revision: next.revision,
    promotedAt: next.promotedAt,
    promotedBy: systemUserId,
  };
  const admin = await Auth.byId(systemUserId);
  logger.info(
    `Production scoring promoted by ${admin?.userName ?? systemUserId}: ${describe(setup)}, was ${describe(before)}`,
    {
      systemUserId,
      from: { promptId: before?.prompt.id, modelId: before?.model.id },
      to: { promptId, modelId },
      revision: next.revision,
    },
  );
  return { setup, queued: await queueScoring(systemUserId) };
});

/** Scores the newest articles with the new setup now; if scoring is busy, its schedule will. */
async function queueScoring(systemUserId: string): Promise<boolean> {
  try {
    // By name: the job lives in core/automations, which reads scoring (ADR 0057).
    await Jobs.enqueue('score-articles', {}, systemUserId);
    return true;
  } catch (error) {
    if (!isVisibleError(error) || error.code !== 'jobs.busy') throw error;
    logger.info(
      'Scoring is busy (a run planned with the setup before): the scheduled scoring run scores with the promoted setup',
    );
    return false;
  }
}
