// The Content Automations actions: each queues one job as the signed-in admin.
import { data } from '@remix-run/node';
import * as Automations from '#core/automations';
import { isVisibleError, VisibleError } from '#core/common';
import * as Jobs from '#core/jobs';
import * as Audiences from '#core/audiences';
import * as Scoring from '#core/scoring';
import * as SourceMatching from '#core/source-matching';
import * as Streams from '#core/streams';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';

type Result = { message: string } | { error: string };

export async function automationAction(request: Request) {
  const user = await requireAdmin(request);
  try {
    return { message: await trigger(await readForm(request), user.id) } satisfies Result;
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ error: error.message } satisfies Result, { status: error.status });
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
    default:
      throw new VisibleError('input.invalid', 'Unknown action', 400);
  }
}

/** The chosen audience's id; none chosen, or one that does not exist, answers the spec's message. */
async function knownAudience(form: URLSearchParams, message: string): Promise<string> {
  const audienceId = String(form.get('audienceId') ?? '').trim();
  if (!audienceId || audienceId.length > 64 || !(await Audiences.byId(audienceId)))
    throw new VisibleError('audience.not_selected', message, 400);
  return audienceId;
}
