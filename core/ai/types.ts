// The AI port: three operations every provider answers the same way. A structured request names
// its task, so a provider without a language model (local) can serve it from the task's inputs,
// while a language model reads the rendered prompt and answers in the task's JSON schema.
import type * as v from 'valibot';

export const AI_PROVIDERS = ['local', 'openai', 'openai-compatible'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];
export const AI_MODEL_TYPES = ['gpt', 'embeddings'] as const;
export type AiModelType = (typeof AI_MODEL_TYPES)[number];

/** What a call needs to know about an AI model record (the spec's AI model, plus its address). */
export type AiModelRef = {
  id: string;
  provider: AiProvider;
  model: string;
  modelType: AiModelType;
  /** OpenAI-compatible servers (Ollama, vLLM, LM Studio) and OpenAI overrides. */
  baseUrl?: string;
};

/** Tokens a call used, and what it cost where the model's price is known (USD). */
export type AiUsage = {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costUsd?: number;
};

/** A JSON schema object as OpenAI's strict structured outputs accept it. */
export type JsonSchema = { [key: string]: unknown };

/**
 * A structured task the product asks of a model: its named inputs, the answer's schema (valibot
 * for validation, JSON schema for the provider) and a fixed system message that states the
 * output contract, so an editor's prompt can change the question but never the answer's shape.
 */
export type AiTask<I, O> = {
  name: string;
  schemaName: string;
  system: string;
  input: v.GenericSchema<unknown, I>;
  answer: v.GenericSchema<unknown, O>;
  jsonSchema: JsonSchema;
};

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** The story a reader's feedback thread is about, as the thread keeps it. */
export type Story = { title: string; source: string; summary: string };

export type CompleteRequest<I, O> = {
  model: AiModelRef;
  task: AiTask<I, O>;
  /** The task's named inputs: the prompt was filled from them, and the local provider reads them. */
  input: I;
  /** The rendered prompt (an editor's Prompt record with its placeholders filled). */
  user: string;
  /** Earlier turns, for a task answered inside a conversation (the assistant's clue review). */
  history?: ChatMessage[];
  signal?: AbortSignal;
  /** A call inside a web request: the most it may take, retries included (IN_REQUEST_BUDGET_MS). */
  budgetMs?: number;
};

export type Completion<O> = {
  answer: O;
  /** The model's text as received (the admin shows it as 'raw'). */
  raw: string;
  usage: AiUsage;
  model: AiModelRef;
};

export type EmbedRequest = {
  model: AiModelRef;
  texts: string[];
  signal?: AbortSignal;
  budgetMs?: number;
};
export type Embeddings = { vectors: number[][]; usage: AiUsage; model: AiModelRef };

export type ChatRequest = {
  model: AiModelRef;
  /** The assistant's instructions (a Prompt record, e.g. onboarding or change_clues). */
  system: string;
  messages: ChatMessage[];
  /**
   * Feedback on a story: a language model reads it in `system`; the local provider, which reads
   * no instructions, reads it here.
   */
  story?: Story;
  /**
   * The thread this chat belongs to, for the local provider, which reads no instructions: the
   * onboarding interview or a change of clues (feedback included), with the reader's clues.
   */
  thread?: {
    category: 'onboarding' | 'change_clues';
    currentClues: string[];
    feedback?: 'liked' | 'disliked';
  };
  signal?: AbortSignal;
  /** A call inside a web request: the most it may take, retries included (IN_REQUEST_BUDGET_MS). */
  budgetMs?: number;
};
export type ChatReply = { message: string; usage: AiUsage; model: AiModelRef };

/** Every method rejects with an AiError (see errors.ts). */
export interface Ai {
  complete<I, O>(request: CompleteRequest<I, O>): Promise<Completion<O>>;
  embed(request: EmbedRequest): Promise<Embeddings>;
  chat(request: ChatRequest): Promise<ChatReply>;
}

export const NO_USAGE: AiUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 };
