// What a call costs, from a per-model price table (USD per million tokens, OpenAI's list prices).
// Models not in the table (self-hosted servers, the local provider) have no cost estimate.
import type { AiModelRef, AiUsage } from './types';

type Price = { input: number; output: number };

const OPENAI_PRICES: Record<string, Price> = {
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
};

/** The table's entry for a model, matching dated snapshots (gpt-4o-mini-2024-07-18) by prefix. */
function priceOf(model: AiModelRef): Price | undefined {
  if (model.provider !== 'openai') return undefined;
  const exact = OPENAI_PRICES[model.model];
  if (exact) return exact;
  const family = Object.keys(OPENAI_PRICES)
    .filter((name) => model.model.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  return family ? OPENAI_PRICES[family] : undefined;
}

export function usageOf(model: AiModelRef, inputTokens: number, outputTokens: number): AiUsage {
  const usage: AiUsage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (model.provider === 'local') return { ...usage, costUsd: 0 };
  const price = priceOf(model);
  if (price) {
    usage.costUsd = (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
  }
  return usage;
}

/** Sums the usage of several calls (a job's run total). */
export function addUsage(a: AiUsage, b: AiUsage): AiUsage {
  const cost =
    a.costUsd === undefined || b.costUsd === undefined ? undefined : a.costUsd + b.costUsd;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}
