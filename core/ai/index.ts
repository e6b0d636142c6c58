// The AI port (DESIGN.md): structured answers, embeddings and chat, from the model an AI model
// record names. `ai()` routes each call to the record's provider: the local provider, or the
// OpenAI adapter for OpenAI and any OpenAI-compatible server, with keys from configuration.
import { config } from '#core/config';
import { AiNotConfigured } from './errors';
import { localProvider } from './local/index';
import { openAiProvider } from './openai';
import { defaultRetryPolicy } from './retry';
import type { Ai, AiModelRef } from './types';

export * from './types';
export * from './errors';
export * from './tasks';
export { readAnswer } from './answer';
export { usageOf, addUsage } from './pricing';
export {
  defaultRetryPolicy,
  backoffDelay,
  retryAfterMs,
  IN_REQUEST_BUDGET_MS,
  type RetryPolicy,
} from './retry';
export { MAX_ANSWER_BYTES, openAiProvider, toAiError, type OpenAiSettings } from './openai';
export { MAX_MODEL_REDIRECTS, modelFetch } from './model-fetch';
export { localProvider, type LocalProviderOptions } from './local/index';
export { storyClues } from './local/chat';
export { storyChips } from './local/chips';
export {
  buildCorpus,
  facetKey,
  MAX_STEMS,
  parseCorpus,
  serialiseCorpus,
  type Corpus,
  type CorpusDocument,
} from './local/corpus';
export { wordVectors } from './local/vectors';
export { terms, topicsOf, topicWeight, type Term } from './local/text';
export {
  negativeMatching,
  type Matching,
  type ReadPhrase,
  type ReadStory,
  type StoryText,
} from './local/mutes';
export {
  CORPUS_CACHE_MS,
  corpusSnapshot,
  refreshCorpus,
  storedCorpus,
  type CorpusSnapshot,
  type RefreshOutcome,
} from './corpus';
export { CorpusStatsEntity } from './corpus-entity';
export { AiModelEntity } from './model-entity';
export {
  AiModelInput,
  LOCAL_MODELS,
  aiModelId,
  byId,
  configured,
  create,
  displayName,
  list,
  type AiModel,
} from './models';

const adapters = new Map<string, Ai>();

/** The adapter serving a model: one per provider and server, built on first use. */
export function providerFor(model: AiModelRef): Ai {
  const key = `${model.provider}|${model.baseUrl ?? ''}`;
  const known = adapters.get(key);
  if (known) return known;
  let adapter: Ai;
  if (model.provider === 'local') {
    adapter = localProvider();
  } else {
    const settings = config();
    const apiKey =
      model.provider === 'openai'
        ? settings.OPENAI_API_KEY
        : (settings.OPENAI_COMPATIBLE_API_KEY ?? 'not-needed');
    if (!apiKey)
      throw new AiNotConfigured('OPENAI_API_KEY is not set, so OpenAI models cannot run');
    if (model.provider === 'openai-compatible' && !model.baseUrl) {
      throw new AiNotConfigured(`The model ${model.model} has no base URL for its server`);
    }
    adapter = openAiProvider({
      apiKey,
      baseUrl: model.baseUrl,
      timeoutMs: settings.AI_TIMEOUT_MS,
      retry: defaultRetryPolicy(settings.AI_MAX_RETRIES),
    });
  }
  adapters.set(key, adapter);
  return adapter;
}

/** The port: every call goes to the provider of the model it names. */
export function ai(): Ai {
  return {
    complete: (request) => providerFor(request.model).complete(request),
    embed: (request) => providerFor(request.model).embed(request),
    chat: (request) => providerFor(request.model).chat(request),
  };
}
