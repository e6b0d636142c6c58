// The local ranker's corpus: after an import stores new articles, a 'refresh-corpus' run learns the
// term statistics of the newest articles and stores them as one snapshot (core/ai/corpus.ts), so
// word weights follow the news the product actually imports (docs/decisions/0031).
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import { isVisibleError } from '#core/common';
import * as Jobs from '#core/jobs';

/** The newest articles the statistics are learned from: a bounded read however big the table. */
export const CORPUS_ARTICLES = 2_000;

export const refreshCorpus = Jobs.defineJob({
  name: 'refresh-corpus',
  title: 'Updating word statistics',
  input: v.object({}),
  async run(_input, context) {
    const articles = await Articles.latestTexts(CORPUS_ARTICLES);
    const outcome = await Ai.refreshCorpus(
      articles.map(({ title, summary, source }) => ({ title, summary: summary ?? '', source })),
    );
    context.log.info(`Word statistics of ${articles.length} article(s): ${outcome}`);
    return { articles: articles.length, outcome };
  },
});

/**
 * After an import with new articles: refresh the statistics. A run already queued or running
 * reads the articles when it runs, so a busy slot is left to it.
 */
export async function refreshCorpusAfterImport(
  newArticles: number,
  context: Pick<Jobs.JobContext, 'log' | 'systemUserId'>,
): Promise<void> {
  if (newArticles === 0) return;
  try {
    await Jobs.enqueue(refreshCorpus, {}, context.systemUserId);
  } catch (error) {
    if (!isVisibleError(error) || error.code !== 'jobs.busy') throw error;
    context.log.info('Word statistics are being updated already');
  }
}
