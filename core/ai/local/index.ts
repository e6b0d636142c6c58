// The local provider: answers the product's known tasks with lexical and statistical methods
// (local/*.ts), deterministically and without a network. Its answers pass through the same
// schemas as a language model's, and its usage counts words as tokens at no cost. Relevance is
// rated with the term statistics of a corpus: the product's stored snapshot by default (see
// ../corpus.ts), else those of the request's own texts.
import * as v from 'valibot';
import { AiUnsupportedTask } from '../errors';
import { usageOf } from '../pricing';
import {
  articleRelevance,
  articleRelevanceBatch,
  assistantClues,
  audienceNameAssessment,
  pickBestContent,
  storyFromArticles,
} from '../tasks';
import { storedCorpus } from '../corpus';
import type { ArticleInput } from '../tasks';
import type { Ai, AiTask, ChatMessage } from '../types';
import { assessClue } from './assessment';
import { cluesFrom, interviewReply } from './chat';
import { editReply, editsFrom } from './edits';
import { buildCorpus, type Corpus } from './corpus';
import { embedText } from './embeddings';
import { pickStories } from './picks';
import { articleRater, type Ranker } from './relevance';
import { storyOf } from './story';
import { wordVectors } from './vectors';

/** What a method may ask for: the ranker for one article and the clues it is rated against. */
type Context = {
  history: ChatMessage[];
  ranker: (article: ArticleInput, clues: string[]) => Promise<Ranker>;
};
type Solver = (input: unknown, context: Context) => unknown;

/** One method per task name; the task's own input schema is applied first. */
function solver<I>(task: AiTask<I, unknown>, solve: (input: I, context: Context) => unknown) {
  return [
    task.name,
    (input: unknown, context: Context) => solve(v.parse(task.input, input), context),
  ] as const;
}

const SOLVERS = new Map<string, Solver>([
  solver(articleRelevance, async ({ article, clues }, { ranker }) =>
    articleRater(article, await ranker(article, clues))(clues),
  ),
  solver(articleRelevanceBatch, async ({ article, audiences }, { ranker }) => {
    const rate = articleRater(
      article,
      await ranker(
        article,
        audiences.flatMap((a) => a.clues),
      ),
    );
    return {
      results: audiences.map((audience) => ({ audienceId: audience.id, ...rate(audience.clues) })),
    };
  }),
  solver(audienceNameAssessment, (input) => assessClue(input)),
  solver(assistantClues, ({ category, currentClues, ...context }, { history }) =>
    category === 'onboarding'
      ? cluesFrom(history, currentClues)
      : editsFrom(history, { currentClues, ...context }),
  ),
  solver(pickBestContent, (input) => pickStories(input)),
  solver(storyFromArticles, ({ articles }) => storyOf(articles)),
]);

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

export type LocalProviderOptions = {
  /** The corpus to rate relevance with; by default the stored snapshot (undefined while none is). */
  corpus?: () => Promise<Corpus | undefined>;
};

export function localProvider({ corpus = storedCorpus }: LocalProviderOptions = {}): Ai {
  // Without a stored corpus, the request's own texts are the corpus: the article and the clues.
  const ranker = async (article: ArticleInput, clues: string[]): Promise<Ranker> => {
    const [vectors, stored] = await Promise.all([wordVectors(), corpus()]);
    const own = () =>
      buildCorpus([article, ...clues.map((clue) => ({ title: clue, summary: '' }))], vectors, {
        dropRare: false,
      });
    return { vectors, corpus: stored ?? own() };
  };
  return {
    async complete({ model, task, input, user, history }) {
      const solve = SOLVERS.get(task.name);
      if (!solve) {
        throw new AiUnsupportedTask(`The local provider has no method for the task ${task.name}`);
      }
      const answer = v.parse(task.answer, await solve(input, { history: history ?? [], ranker }));
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
    async chat({ model, system, messages, story, thread }) {
      // Without a thread it is an interview, as every chat was before threads said which.
      const message =
        thread?.category === 'change_clues'
          ? editReply(messages, { ...thread, ...(story ? { story } : {}) })
          : interviewReply(messages);
      const input = words(system) + messages.reduce((n, m) => n + words(m.content), 0);
      return { message, usage: usageOf(model, input, words(message)), model };
    },
  };
}
