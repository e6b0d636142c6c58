// AI seed: the local models (the default in npm start and tests), an OpenAI model to switch to
// once OPENAI_API_KEY is set, and each automation's and experiment implementation's default prompt. Idempotent. It promotes no
// scoring setup: the demo scores with the built-in scoring prompt and the configured model, as
// every installation does until an operator promotes one (ADR 0032).
import * as Ai from '#core/ai';
import * as Experiments from '#core/experiments';
import * as Prompts from '#core/prompts';

const MODELS = [
  Ai.LOCAL_MODELS.gpt,
  Ai.LOCAL_MODELS.embeddings,
  { provider: 'openai', model: 'gpt-4o-mini', modelType: 'gpt' },
  { provider: 'openai', model: 'text-embedding-3-small', modelType: 'embeddings' },
] as const;

export async function seedAi(): Promise<{ aiModels: number; prompts: number }> {
  let aiModels = 0;
  for (const model of MODELS) {
    if (await Ai.byId(Ai.aiModelId(model.provider, model.model))) continue;
    await Ai.create(model);
    aiModels++;
  }
  const prompts = (await Prompts.seedDefaults()) + (await Experiments.seedDefaultPrompts());
  return { aiModels, prompts };
}
