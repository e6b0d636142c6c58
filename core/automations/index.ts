// Content automations: the jobs operators trigger from the admin panel. The worker's registry of
// every job, and the schedules, are core/worker's (ADR 0057).
import * as v from 'valibot';
import * as Articles from '#core/articles';
import * as Curation from '#core/curation';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as SourceMatching from '#core/source-matching';
import * as Scoring from '#core/scoring';
import { PROMPT_TESTING_MESSAGE, testPrompts } from '#core/scoring';
import * as Stories from '#core/stories';
import * as Streams from '#core/streams';

import { refreshCorpusAfterImport } from './corpus';
import { everyTarget, scoreAfterImport } from './scoring';

export { moveScores, MOVE_ARTICLES_PER_CHUNK } from './move-scores';
export {
  ARTICLES_PER_CHUNK,
  SCORING_ARTICLE_LIMIT,
  experimentResults,
  READER_ARTICLE_LIMIT,
  scoreArticles,
  scoreArticlesExperiment,
  scoreNewClues,
  targetGroups,
  TARGETS_PER_CHUNK,
} from './scoring';
export { CORPUS_ARTICLES, refreshCorpus } from './corpus';

/** Imports and Clear Table write the same articles and streams: they never run at once. */
const ARTICLES_SLOT = 'articles';

export const addStreamAndImport = Jobs.defineJob({
  name: 'add-stream-and-import-articles',
  title: 'Adding a stream and importing its articles',
  slot: ARTICLES_SLOT,
  priority: 1,
  input: v.object({
    // The stream's own rule for its name: the job's input is stored before the stream is made.
    streamName: Streams.StreamInput.entries.name,
    streamUrl: v.pipe(
      v.string(),
      v.trim(),
      v.url('Please add a valid feed URL'),
      v.regex(/^https?:\/\//i, 'Please add a valid feed URL'),
    ),
  }),
  async run({ streamName, streamUrl }, context) {
    const stream = await Streams.create({ name: streamName, url: streamUrl });
    await context.progress(0.1, `Importing ${stream.name}`);
    const result = await Streams.importStream(stream, context);
    await refreshCorpusAfterImport(result.new, context);
    await scoreAfterImport(result.new, context);
    return result;
  },
});

export const importArticles = Jobs.defineJob({
  name: 'import-articles',
  title: 'Importing articles',
  slot: ARTICLES_SLOT,
  input: v.object({}),
  async run(_input, context) {
    const summary = await Streams.importAll(context);
    await refreshCorpusAfterImport(summary.newArticles, context);
    await scoreAfterImport(summary.newArticles, context);
    return summary;
  },
});

export const COLLECTIONS = {
  // Its scores go with it.
  articles: {
    name: 'Articles',
    // Scores live with their audience or reader, not their article: clearing articles clears them.
    clear: async () => {
      const deleted = await Articles.clearAll();
      await Stories.clearAll();
      await Scoring.forgetAll(await everyTarget());
      return deleted;
    },
  },
  streams: { name: 'Streams', clear: () => Streams.clearAll() },
} as const;
export type CollectionId = keyof typeof COLLECTIONS;

export const clearTable = Jobs.defineJob({
  name: 'clear-table',
  title: 'Clearing a table',
  slot: ARTICLES_SLOT,
  priority: 2,
  input: v.object({
    collection: v.picklist(Object.keys(COLLECTIONS) as CollectionId[], 'Please choose a table'),
  }),
  async run({ collection }, context) {
    const deleted = await COLLECTIONS[collection].clear();
    context.log.info(`Cleared ${COLLECTIONS[collection].name}`, { deleted });
    return { deleted };
  },
});

/** Source matching reads streams and audiences and writes only its own matches. */
const MATCHING_SLOT = 'matching';

export const populateSourceMatching = Jobs.defineJob({
  name: 'populate-source-audience-matching',
  title: 'Matching sources to audiences',
  slot: MATCHING_SLOT,
  input: v.object({}),
  run: (_input, context) => SourceMatching.populate(context),
});

export const audienceMatching = Jobs.defineJob({
  name: 'audience-matching',
  title: 'Matching sources to an audience',
  slot: MATCHING_SLOT,
  input: SourceMatching.AudienceChoice(SourceMatching.AUDIENCE_MATCHING_MESSAGE),
  run: ({ audienceId }, context) => SourceMatching.matchAudience(audienceId, context),
});

export const promptTesting = Jobs.defineJob({
  name: 'prompt-testing',
  title: 'Testing prompts',
  input: SourceMatching.AudienceChoice(PROMPT_TESTING_MESSAGE),
  run: ({ audienceId }, context) => testPrompts(audienceId, context),
});

export const { pickBestContent } = Curation;
export const { sendNewsletters } = Newsletter;
