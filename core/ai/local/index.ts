// The local provider: answers the product's known tasks with lexical and statistical methods
// (local/*.ts), deterministically and without a network. Its answers pass through the same
// schemas as a language model's, and its usage counts words as tokens at no cost.
import * as v from 'valibot';
import { AiUnsupportedTask } from '../errors';
import { usageOf } from '../pricing';
import {
  articleRelevance,
  articleRelevanceBatch,
  assistantClues,
  audienceNameAssessment,
  pickBestContent,
} from '../tasks';
import type { Ai, AiTask, ChatMessage } from '../types';
import { assessClue } from './assessment';
import { cluesFrom, interviewReply } from './chat';
import { embedText } from './embeddings';
import { pickStories } from './picks';
import { rateArticle } from './relevance';

type Solver = (input: unknown, history: ChatMessage[]) => unknown;

/** One method per task name; the task's own input schema is applied first. */
function solver<I>(task: AiTask<I, unknown>, solve: (input: I, history: ChatMessage[]) => unknown) {
  return [
    task.name,
    (input: unknown, history: ChatMessage[]) => solve(v.parse(task.input, input), history),
  ] as const;
}

const SOLVERS = new Map<string, Solver>([
  solver(articleRelevance, ({ article, clues }) => rateArticle(article, clues)),
  solver(articleRelevanceBatch, ({ article, audiences }) => ({
    results: audiences.map((audience) => ({
      audienceId: audience.id,
      ...rateArticle(article, audience.clues),
    })),
  })),
  solver(audienceNameAssessment, (input) => assessClue(input)),
  solver(assistantClues, ({ currentClues }, history) => cluesFrom(history, currentClues)),
  solver(pickBestContent, (input) => pickStories(input)),
]);

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

export function localProvider(): Ai {
  return {
    async complete({ model, task, input, user, history }) {
      const solve = SOLVERS.get(task.name);
      if (!solve) {
        throw new AiUnsupportedTask(`The local provider has no method for the task ${task.name}`);
      }
      const answer = v.parse(task.answer, solve(input, history ?? []));
      const raw = JSON.stringify(answer);
      return { answer, raw, usage: usageOf(model, words(user), words(raw)), model };
    },
    async embed({ model, texts }) {
      const vectors = texts.map(embedText);
      return {
        vectors,
        usage: usageOf(
          model,
          texts.reduce((n, t) => n + words(t), 0),
          0,
        ),
        model,
      };
    },
    async chat({ model, system, messages }) {
      const message = interviewReply(messages);
      const input = words(system) + messages.reduce((n, m) => n + words(m.content), 0);
      return { message, usage: usageOf(model, input, words(message)), model };
    },
  };
}
