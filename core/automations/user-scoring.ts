// 'Score articles for a new reader': right after signup, the newest articles are scored against
// the reader's own descriptors (a 'user' target), so their feed has stories before the next
// scheduled run, and the reader gets the 'newsfeed is ready' e-mail the funnel promised. One slot
// per reader: two signups at once never refuse each other.
import * as v from 'valibot';
import * as Articles from '#core/articles';
import { mapPool } from '#core/common';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';

/** A new reader's first feed comes from the newest articles only: the work is bounded. */
export const USER_SCORING_ARTICLES = 50;
/** Articles scored at once: a few model calls in parallel, not fifty. */
const PARALLEL_ARTICLES = 4;

export const scoreUserArticles = Jobs.defineJob({
  name: 'score-user-articles',
  title: 'Scoring articles for a new reader',
  slotFor: ({ userId }) => `score-user-articles#${userId}`,
  input: v.object({ userId: v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, 'A user id is a ULID')) }),
  async run({ userId }, context) {
    const user = await Users.byId(userId);
    const target = user && Scoring.userTarget(user);
    if (!target || target.clues.length === 0) {
      context.log.info('No descriptors to score articles for', { userId });
      return Scoring.noTotals();
    }
    const [setup, articles] = await Promise.all([
      Scoring.defaultSetup(context.processId, context.log),
      Articles.latest(USER_SCORING_ARTICLES),
    ]);
    const totals = Scoring.noTotals();
    let done = 0;
    await mapPool(articles, PARALLEL_ARTICLES, async (article) => {
      Scoring.addTotals(totals, await Scoring.scoreArticle(article, [target], setup));
      done += 1;
      await context.progress(done / articles.length);
    });
    context.log.info(`Scored ${done} article(s) for a new reader`, { userId, ...totals });
    // The funnel promised an e-mail when the feed is ready: this run made it so (once per reader).
    await Users.markFeedReady(userId);
    return totals;
  },
});
