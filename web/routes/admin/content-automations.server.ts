// Content Automations' data and actions: the page's runs, streams, articles and results; each
// automation queues one job as the signed-in admin, and a stream is paused, resumed or removed
// (after a confirmation step: `?remove={id}` shows it, so it works without JavaScript). The
// production scoring setup is promoted the same way: `?promotePrompt=&promoteModel=` asks first.
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Auth from '#core/auth';
import * as Automations from '#core/automations';
import { VisibleError } from '#core/common';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import * as SourceMatching from '#core/source-matching';
import * as Streams from '#core/streams';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { processView, runView } from '#web/lib/processes.server';
import { refusal } from '#web/lib/refusal.server';
import { parseOutput, type RunView } from '#web/lib/run-summary';
import { runnable, whyModelCannotRun } from './model-readiness.server';

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
  const query = new URL(request.url).searchParams;
  const removeId = query.get('remove');
  const [active, lastImport, streams, articles, articleCount, audiences, runs, removing, scoring] =
    await Promise.all([
      Jobs.active(),
      Jobs.lastRun(Automations.importArticles.name),
      Streams.list(),
      Articles.latest(20),
      Articles.count(),
      Audiences.list(),
      lastRuns(),
      removeId && Streams.StreamIdPattern.test(removeId) ? Streams.byId(removeId) : undefined,
      productionScoring(query),
    ]);
  const titles = new Map(audiences.map((audience) => [audience.id, audience.title]));
  const { production } = scoring;
  const [best, sourceMatches] = await Promise.all([
    // No best match to show while production cannot score (its card says why).
    'prompt' in production
      ? Scoring.bestFor(
          articles.map((article) => article.id),
          audiences.filter((audience) => audience.state === 'active'),
          { promptId: production.prompt.id, modelId: production.model.id },
        )
      : new Map<string, Scoring.Score>(),
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
    ...scoring,
  };
}

/**
 * The production scoring setup as the card shows it, the saved scoring prompts and gpt models to
 * promote, and the setup waiting for a confirmation (`?promotePrompt=&promoteModel=`, both among
 * the choices).
 */
async function productionScoring(query: URLSearchParams) {
  const [current, prompts, models] = await Promise.all([
    Scoring.productionSetup().then(productionView, (error: unknown) => {
      // AI_GPT_MODEL names a model not among the AI models: scoring fails until one is promoted.
      if (!(error instanceof Ai.AiNotConfigured)) throw error;
      return { revision: 0, problem: error.message };
    }),
    Prompts.list('scoring'),
    Ai.list('gpt'),
  ]);
  const { ready, notOffered } = runnable(models);
  const choices = {
    prompts: prompts.map(({ id, title, createdAt }) => ({
      id,
      title,
      savedAt: id === Prompts.defaultPromptId('scoring') ? undefined : createdAt,
    })),
    models: ready.map((model) => ({ id: model.id, name: Ai.displayName(model) })),
    /** The gpt models that cannot run here, each with why. */
    notOffered,
  };
  const prompt = choices.prompts.find(({ id }) => id === query.get('promotePrompt'));
  const model = choices.models.find(({ id }) => id === query.get('promoteModel'));
  return {
    production: current,
    choices,
    /** The setup whose promotion waits for a confirmation. */
    promoting: prompt &&
      model && {
        prompt,
        model,
        same:
          'prompt' in current && current.prompt.id === prompt.id && current.model.id === model.id,
      },
  };
}

async function productionView(setup: Scoring.ProductionSetup) {
  const admin = setup.promotedBy ? await Auth.byId(setup.promotedBy) : undefined;
  return {
    revision: setup.revision,
    prompt: { id: setup.prompt.id, title: setup.prompt.title },
    model: { id: setup.model.id, name: Ai.displayName(setup.model) },
    promotedAt: setup.promotedAt,
    promotedBy: admin?.userName,
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
    case 'promote-scoring': {
      const revision = form.get('revision');
      const model = await Ai.byId(String(form.get('modelId') ?? ''));
      const why = model && whyModelCannotRun(model);
      if (why)
        throw new VisibleError(
          'scoring.model_cannot_run',
          `${Ai.displayName(model)} cannot score here: ${why}`,
          400,
        );
      const { setup, queued } = await Scoring.promote({
        promptId: String(form.get('promptId') ?? ''),
        modelId: String(form.get('modelId') ?? ''),
        systemUserId,
        revision: revision === null ? undefined : Number(revision),
      });
      return `Production scoring now uses "${setup.prompt.title}" with ${Ai.displayName(setup.model)}. ${
        queued
          ? 'Scoring the newest articles with it is queued.'
          : 'Scoring is busy; its next scheduled run scores with it.'
      }`;
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
