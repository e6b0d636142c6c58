// The Content Automations actions: each queues one job as the signed-in admin.
import { data } from '@remix-run/node';
import * as Automations from '#core/automations';
import { isVisibleError, VisibleError } from '#core/common';
import * as Jobs from '#core/jobs';
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
