// Content Automations' data and actions: the page's runs, streams, articles and results; each
// automation queues one job as the signed-in admin, and a stream is paused, resumed or removed
// (after a confirmation step: `?remove={id}` shows it, so it works without JavaScript).
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Automations from '#core/automations';
import { VisibleError } from '#core/common';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import * as SourceMatching from '#core/source-matching';
import * as Streams from '#core/streams';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { processView, runView } from '#web/lib/processes.server';
import { refusal } from '#web/lib/refusal.server';
import { parseOutput, type RunView } from '#web/lib/run-summary';

export type StreamRow = Pick<
  Streams.Stream,
  'id' | 'name' | 'url' | 'lastImportAt' | 'lastError' | 'backoffUntil' | 'pausedAt'
>;
const streamRow = ({
  id,
  name,
  url,
  lastImportAt,
  lastError,
  backoffUntil,
  pausedAt,
}: Streams.Stream): StreamRow => ({
  id,
  name,
  url,
  lastImportAt,
  lastError,
  // Only a wait still to come is shown; decided here, so server and browser render the same.
  backoffUntil: backoffUntil && backoffUntil > new Date().toISOString() ? backoffUntil : undefined,
  pausedAt,
});

export async function automationsLoader(request: Request) {
  await requireAdmin(request);
  const removeId = new URL(request.url).searchParams.get('remove');
  const [active, lastImport, streams, articles, articleCount, audiences, runs, removing] =
    await Promise.all([
      Jobs.active(),
      Jobs.lastRun(Automations.importArticles.name),
      Streams.list(),
      Articles.latest(20),
      Articles.count(),
      Audiences.list(),
      lastRuns(),
      removeId && Streams.StreamIdPattern.test(removeId) ? Streams.byId(removeId) : undefined,
    ]);
  const titles = new Map(audiences.map((audience) => [audience.id, audience.title]));
  const [best, sourceMatches] = await Promise.all([
    Scoring.bestFor(
      articles.map((article) => article.id),
      audiences.filter((audience) => audience.state === 'active'),
    ),
    matchesOfLastRun(runs.audienceMatching),
  ]);
  return {
    active: active.map(processView),
    lastImport: lastImport && runView(lastImport),
    streams: streams.map(streamRow),
    /** The stream whose removal waits for a confirmation (`?remove={id}`). */
    removing: removing && streamRow(removing),
    articles: articles.map(({ id, title, source, publishedAt, canonicalUrl }) => ({
      id,
      title,
      source,
      publishedAt,
      canonicalUrl,
      best: bestOf(best.get(id), titles),
    })),
    articleCount,
    collections: Object.entries(Automations.COLLECTIONS).map(([id, { name }]) => ({ id, name })),
    audiences: audiences.map(({ id, title, state }) => ({ id, title, state })),
    runs: Object.fromEntries(
      Object.entries(runs).map(([key, run]) => [key, run && runView(run)]),
    ) as Record<keyof typeof runs, RunView | undefined>,
    experiment: runs.experiment
      ? Automations.experimentResults(
          parseOutput(runs.experiment) as Record<string, number>,
          titles,
        )
      : [],
    sourceMatches,
  };
}

/** The last run of each automation the page reports on: one small Query each. */
async function lastRuns() {
  const [score, experiment, populateMatching, audienceMatching, promptTesting, pickBest, send] =
    await Promise.all(
      [
        Automations.scoreArticles,
        Automations.scoreArticlesExperiment,
        Automations.populateSourceMatching,
        Automations.audienceMatching,
        Automations.promptTesting,
        Automations.pickBestContent,
        Automations.sendNewsletters,
      ].map((job) => Jobs.lastRun(job.name)),
    );
  return { score, experiment, populateMatching, audienceMatching, promptTesting, pickBest, send };
}

/** An article's best score among the active audiences, as the latest articles table shows it. */
function bestOf(
  best: Pick<Scoring.Score, 'label' | 'matchingId'> | undefined,
  titles: ReadonlyMap<string, string>,
) {
  return best
    ? { label: best.label, audience: titles.get(best.matchingId) ?? 'a removed audience' }
    : undefined;
}

/** The sources the last audience-matching run rated for its audience, best first. */
async function matchesOfLastRun(run?: Jobs.Process) {
  if (!run) return [];
  const { audienceId } = JSON.parse(run.input) as { audienceId?: string };
  if (!audienceId) return [];
  return (await SourceMatching.forAudience(audienceId)).map(
    ({ streamId, streamName, label, score, reason, headlines }) => ({
      streamId,
      streamName,
      label,
      score,
      reason,
      headlines,
    }),
  );
}

export async function automationAction(request: Request) {
  const user = await requireAdmin(request);
  try {
    return { message: await trigger(await readForm(request), user.id) };
  } catch (error) {
    return refusal(error, {});
  }
}

async function trigger(form: URLSearchParams, systemUserId: string): Promise<string> {
  switch (form.get('intent')) {
    case 'add-stream': {
      const streamName = String(form.get('streamName') ?? '');
      const streamUrl = String(form.get('streamUrl') ?? '');
      // Said now, not in a job's log: a known URL under a new name would drop the typed name.
      await Streams.assertNew({ name: streamName, url: streamUrl });
      await Jobs.enqueue(Automations.addStreamAndImport, { streamName, streamUrl }, systemUserId);
      return 'Successfully triggered add stream and import articles';
    }
    case 'import':
      await Jobs.enqueue(Automations.importArticles, {}, systemUserId);
      return 'Successfully triggered scheduled import';
    case 'score':
      await Jobs.enqueue(Automations.scoreArticles, {}, systemUserId);
      return 'Successfully triggered article scoring';
    case 'score-experiment': {
      const limit = form.get('articleLimit');
      await Jobs.enqueue(
        Automations.scoreArticlesExperiment,
        limit === null || limit === '' ? {} : { articleLimit: Number(limit) },
        systemUserId,
      );
      return 'Successfully triggered score articles experiment';
    }
    case 'send-newsletters': {
      const frequency = form.get('frequency') === 'weekly' ? 'weekly' : 'daily';
      await Jobs.enqueue(Automations.sendNewsletters, { frequency }, systemUserId);
      return 'Successfully triggered send newsletters';
    }
    case 'pick-best':
      await Jobs.enqueue(Automations.pickBestContent, {}, systemUserId);
      return 'Successfully triggered Pick best content for descriptors';
    case 'populate-matching':
      await Jobs.enqueue(Automations.populateSourceMatching, {}, systemUserId);
      return 'Successfully triggered populate source <> audience matchings';
    case 'audience-matching':
      await Jobs.enqueue(
        Automations.audienceMatching,
        { audienceId: await knownAudience(form, SourceMatching.AUDIENCE_MATCHING_MESSAGE) },
        systemUserId,
      );
      return 'Successfully triggered audience matching';
    case 'prompt-testing':
      await Jobs.enqueue(
        Automations.promptTesting,
        { audienceId: await knownAudience(form, Scoring.PROMPT_TESTING_MESSAGE) },
        systemUserId,
      );
      return 'Successfully triggered prompt testing';
    case 'clear': {
      if (form.get('confirm') !== 'yes') {
        throw new VisibleError(
          'clear.unconfirmed',
          'Please confirm that every item of the table may be deleted',
          400,
        );
      }
      const collection = String(form.get('collection') ?? '') as Automations.CollectionId;
      await Jobs.enqueue(Automations.clearTable, { collection }, systemUserId);
      return `Successfully triggered Clear table: ${Automations.COLLECTIONS[collection].name}`;
    }
    // Not processes: an import under way skips a stream paused or removed before its fetch.
    case 'pause-stream':
      return `Stream ${(await Streams.pause(String(form.get('streamId') ?? ''))).name} paused: imports skip it until it is resumed`;
    case 'resume-stream':
      return `Stream ${(await Streams.resume(String(form.get('streamId') ?? ''))).name} resumed: the next import fetches it`;
    case 'remove-stream':
      return `Stream ${(await Streams.remove(String(form.get('streamId') ?? ''))).name} removed; the articles it brought stay`;
    default:
      throw new VisibleError('input.invalid', 'This action is not known', 400);
  }
}

/** The chosen audience's id; none chosen, or one that does not exist, answers the spec's message. */
async function knownAudience(form: URLSearchParams, message: string): Promise<string> {
  const audienceId = String(form.get('audienceId') ?? '').trim();
  if (!audienceId || audienceId.length > 64 || !(await Audiences.byId(audienceId)))
    throw new VisibleError('audience.not_selected', message, 400);
  return audienceId;
}
