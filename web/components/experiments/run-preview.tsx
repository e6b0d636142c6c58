// A run's preview modal (`?run={id}`): its settings and status, Execute and Edit (only for a run
// never executed or Failed), Duplicate, the output of a successful run, and for a successful
// scoring run 'Use this prompt and model in production', asked first (`&promote=1`), unless
// production already uses them or the model cannot run here, which it then says.
import { Form, Link, useNavigation } from '@remix-run/react';
import type { RunView } from '#core/experiments';
import { AdminModal } from '#web/components/admin-modal';
import { When } from '#web/components/when';
import { experimentsHref, type ScreenState } from '#web/lib/experiment-paths';
import { RunStatus } from './active-experiments';
import { RunOutputView } from './run-output';

export function RunPreview({
  run,
  state,
  promotable,
  notPromotable,
  promoting,
  production,
}: {
  run: RunView;
  state: ScreenState;
  /** A successful scoring run: its prompt and model can be promoted. */
  promotable: boolean;
  /** Why a successful scoring run is not offered for promotion. */
  notPromotable?: string;
  promoting: boolean;
  /** What production scores with now, and its revision, while the promote question is open. */
  production?: { revision: number; now: string };
}) {
  const submitting = useNavigation().state === 'submitting';
  const here = experimentsHref(state, { run: run.id });
  return (
    <AdminModal title={run.name} closeTo={experimentsHref(state)}>
      <dl className="setup-facts">
        <dt>Id</dt>
        <dd className="run-id">{run.id}</dd>
        <dt>Status</dt>
        <dd>
          <RunStatus status={run.status} />
        </dd>
        <dt>Executed at</dt>
        <dd>
          <When iso={run.executedAt} otherwise="Not executed" />
        </dd>
        <dt>Created</dt>
        <dd>
          <When iso={run.createdAt} />
        </dd>
        {run.comments && (
          <>
            <dt>Comments</dt>
            <dd>{run.comments}</dd>
          </>
        )}
      </dl>
      {run.status === 'Failed' && run.error && (
        <p className="error-box" role="alert">
          {run.error}
        </p>
      )}
      <Form method="post" action={here} className="admin-form__actions run-actions">
        <input type="hidden" name="id" value={run.id} />
        {run.canExecute && (
          <button
            type="submit"
            name="intent"
            value="execute"
            className="button"
            disabled={submitting}
          >
            Execute
          </button>
        )}
        <button
          type="submit"
          name="intent"
          value="duplicate"
          className="button"
          disabled={submitting}
        >
          Duplicate
        </button>
        {run.canExecute && (
          <Link
            to={experimentsHref(state, { run: run.id, modal: 'edit' })}
            className="button"
            preventScrollReset
          >
            Edit
          </Link>
        )}
        {promotable && !promoting && (
          <Link
            to={experimentsHref(state, { run: run.id, promote: '1' })}
            className="button"
            preventScrollReset
          >
            Use this prompt and model in production
          </Link>
        )}
      </Form>
      {notPromotable && <p className="notice">Not offered for production: {notPromotable}</p>}
      {promotable && promoting && production && (
        <PromoteQuestion run={run} action={here} production={production} />
      )}
      {run.status === 'Success' && run.output && <RunOutputView output={run.output} />}
    </AdminModal>
  );
}

/** The question before a promote, as on Content Automations' card: what follows, then Promote. */
function PromoteQuestion({
  run,
  action,
  production,
}: {
  run: RunView;
  action: string;
  production: { revision: number; now: string };
}) {
  const submitting = useNavigation().state === 'submitting';
  const output = run.output!;
  return (
    <section className="promote-question" aria-labelledby="promote-question-heading">
      <h3 id="promote-question-heading">Use this prompt and model in production?</h3>
      <dl className="setup-facts">
        <dt>Prompt</dt>
        <dd>{output.prompt?.title}</dd>
        <dt>Model</dt>
        <dd>{output.model.name}</dd>
      </dl>
      <p>Production scoring now uses {production.now}.</p>
      <p>
        Scheduled scoring, picks, readers&apos; feeds and newsletters will read only scores made
        with this prompt and model. Scoring the newest articles with it is queued at once; until it
        ends, picks and feeds have fewer stories.
      </p>
      <Form method="post" action={action} className="admin-form__actions">
        <input type="hidden" name="id" value={run.id} />
        <input type="hidden" name="revision" value={production.revision} />
        <button
          type="submit"
          name="intent"
          value="promote"
          className="button"
          disabled={submitting}
        >
          Promote
        </button>
        <Link to={action} preventScrollReset>
          Not now
        </Link>
      </Form>
    </section>
  );
}
