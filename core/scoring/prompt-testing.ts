// Prompt testing: the newest articles scored for one audience with every prompt editors keep for
// 'Prompt testing', side by side: how many articles each prompt puts under each label, and its
// top stories. A test is an experiment: its scores stay with its run (ADR 0033), so it never
// changes what production reads, and testing again scores afresh.
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import { VisibleError } from '#core/common';
import type { JobContext } from '#core/jobs';
import * as Prompts from '#core/prompts';
import { addTotals, audienceTarget, noTotals, scoreArticle, type ScoringTotals } from './score';
import { experimentScoresOf } from './store';

export const PROMPT_TESTING_MESSAGE = 'Prompt testing error: Please select an audience';
/** Articles a prompt test scores. */
export const PROMPT_TEST_ARTICLES = 20;

export type PromptTestResult = {
  promptId: string;
  title: string;
  labels: Record<string, number>;
  top: { articleId: string; title: string; label: string; score: number }[];
};

export async function testPrompts(
  audienceId: string,
  context: Pick<JobContext, 'processId' | 'log' | 'progress'>,
): Promise<{ audience: string; model: string; results: PromptTestResult[] } & ScoringTotals> {
  const audience = await Audiences.byId(audienceId);
  if (!audience) throw new VisibleError('audience.unknown', PROMPT_TESTING_MESSAGE, 400);
  const [saved, model, articles] = await Promise.all([
    Prompts.list('prompt-testing'),
    Ai.configured('gpt'),
    Articles.latest(PROMPT_TEST_ARTICLES),
  ]);
  const prompts = saved.length > 0 ? saved : [await Prompts.current('prompt-testing')];
  const target = audienceTarget(audience);
  const totals = noTotals();
  const results: PromptTestResult[] = [];
  for (const [index, prompt] of prompts.entries()) {
    const setup = {
      prompt,
      model,
      processId: context.processId,
      log: context.log,
      experiment: true,
    };
    for (const article of articles) {
      const done = await scoreArticle(article, [target], setup);
      addTotals(totals, done);
    }
    const labels: Record<string, number> = { Total: 0 };
    const scored: PromptTestResult['top'] = [];
    const titles = new Map(articles.map((article) => [article.id, article.title]));
    const stored = await experimentScoresOf(
      context.processId,
      articles.map((article) => article.id),
      [target],
      { promptId: prompt.id, modelId: model.id },
    );
    for (const score of stored) {
      labels[score.label] = (labels[score.label] ?? 0) + 1;
      labels.Total!++;
      scored.push({
        articleId: score.articleId,
        title: titles.get(score.articleId) ?? '',
        label: score.label,
        score: score.score,
      });
    }
    scored.sort((a, b) => b.score - a.score);
    results.push({ promptId: prompt.id, title: prompt.title, labels, top: scored.slice(0, 3) });
    await context.progress(
      (index + 1) / prompts.length,
      `${index + 1} of ${prompts.length} prompts`,
    );
  }
  return { audience: audience.title, model: Ai.displayName(model), results, ...totals };
}
