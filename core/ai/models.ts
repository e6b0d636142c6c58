// AI model records: list them for pickers, add one, and find the one configuration names.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { fn, freeText, VisibleError } from '#core/common';
import { config } from '#core/config';
import { isConditionFailure } from '#core/db';
import { AiNotConfigured } from './errors';
import { AiModelEntity } from './model-entity';
import { AI_MODEL_TYPES, AI_PROVIDERS, type AiModelRef, type AiModelType } from './types';

export type AiModel = EntityItem<typeof AiModelEntity>;

/** The local provider's two models: what `npm start` and the tests use unless told otherwise. */
export const LOCAL_MODELS = {
  gpt: { provider: 'local', model: 'cluefeed-bm25', modelType: 'gpt' },
  embeddings: { provider: 'local', model: 'cluefeed-hashed-256', modelType: 'embeddings' },
} as const;

/** The id of a provider's model; one record per pair. */
export const aiModelId = (provider: string, model: string) => `${provider}:${model}`;

/** How the spec shows a model: 'provider - model'. */
export const displayName = (model: Pick<AiModel, 'provider' | 'model'>) =>
  `${model.provider} - ${model.model}`;

export const AiModelInput = v.pipe(
  v.object({
    provider: v.picklist(AI_PROVIDERS, 'Please select a provider'),
    model: v.pipe(
      freeText({
        max: 200,
        tooLong: 'A model name has at most 200 characters',
        missing: 'Please add a model name',
      }),
      v.nonEmpty('Please add a model name'),
    ),
    modelType: v.picklist(AI_MODEL_TYPES, 'Please select a model type'),
    baseUrl: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check((url) => /^https?:\/\/[^\s]+$/i.test(url), 'Please add a valid base URL'),
      ),
    ),
  }),
  v.check(
    (input) => input.provider !== 'openai-compatible' || !!input.baseUrl,
    'An OpenAI-compatible model needs the base URL of its server',
  ),
  // An OpenAI model is sent the OpenAI key: a base URL would send it to another server.
  v.check(
    (input) => input.provider === 'openai-compatible' || !input.baseUrl,
    'Only an OpenAI-compatible model has a base URL',
  ),
);

/** Adds a model; the same provider and model twice is refused. */
export const create = fn(AiModelInput, async (input): Promise<AiModel> => {
  const item = {
    ...input,
    id: aiModelId(input.provider, input.model),
    createdAt: new Date().toISOString(),
  };
  try {
    await AiModelEntity.create(item).go();
  } catch (error) {
    if (isConditionFailure(error)) {
      throw new VisibleError(
        'ai_model.exists',
        `The AI model ${displayName(item)} already exists`,
        409,
      );
    }
    throw error;
  }
  return item;
});

export async function byId(id: string): Promise<AiModel | undefined> {
  const { data } = await AiModelEntity.get({ id }).go();
  return data ?? undefined;
}

/** Every model ordered by provider then model, optionally of one type (a small collection). */
export async function list(modelType?: AiModelType): Promise<AiModel[]> {
  const { data } = await AiModelEntity.query.all({}).go({ pages: 'all' });
  return modelType ? data.filter((model) => model.modelType === modelType) : data;
}

/**
 * The model jobs use by default for a type: AI_GPT_MODEL / AI_EMBEDDINGS_MODEL name it as
 * 'provider/model'. The local models work without a record; any other must have been added.
 */
export async function configured(modelType: AiModelType): Promise<AiModelRef> {
  const setting = modelType === 'gpt' ? config().AI_GPT_MODEL : config().AI_EMBEDDINGS_MODEL;
  const slash = setting.indexOf('/');
  const provider = setting.slice(0, slash);
  const model = setting.slice(slash + 1);
  const record = await byId(aiModelId(provider, model));
  if (record) return record;
  const local = LOCAL_MODELS[modelType];
  if (provider === local.provider && model === local.model) {
    return { id: aiModelId(provider, model), ...local };
  }
  throw new AiNotConfigured(
    `The ${modelType} model ${setting} is not among the AI models; add it first`,
  );
}
