// Experiments: the active experiment processes (reloaded every 10 s), a process and an
// implementation chosen by filterable, clearable boxes or from a list that explains each, then its runs (10 a page, preview,
// add / edit, execute, duplicate, compare, promote) or its prompts. Everything the screen shows
// is named by its URL, so each step works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { AdminModal } from '#web/components/admin-modal';
import { ErrorBox } from '#web/components/admin-status';
import { ActiveExperiments } from '#web/components/experiments/active-experiments';
import {
  AddPromptDialog,
  PromptsTab,
  RemovePromptDialog,
} from '#web/components/experiments/prompts-tab';
import { RunForm } from '#web/components/experiments/run-form';
import { RunPreview } from '#web/components/experiments/run-preview';
import { RunsTable, RunsTools } from '#web/components/experiments/runs-table';
import { ChoiceList, Selectors } from '#web/components/experiments/selectors';
import { privatePageHeaders } from '#web/lib/cache';
import { experimentsHref, type Tab } from '#web/lib/experiment-paths';
import {
  experimentsAction,
  experimentsLoader,
  type ActionResult,
  type ExperimentsPage,
} from './experiments.server';

export const meta: MetaFunction = () => [{ title: 'Experiments · Cluefeed admin' }];
export const headers = privatePageHeaders;

export const loader = ({ request }: LoaderFunctionArgs) => experimentsLoader(request);
export const action = ({ request }: ActionFunctionArgs) => experimentsAction(request);

export default function Experiments() {
  const page = useLoaderData<typeof loader>() as unknown as ExperimentsPage;
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const { state, implementation } = page;
  const form = result?.form ?? page.form;
  /** The run form's modal, when it can open (a run that can no longer be edited has none). */
  const formShown = Boolean(implementation && form && page.options);
  const back = experimentsHref(state);
  const tab = (to: Tab) => ({
    to: experimentsHref({ ...state, tab: to, page: 1 }),
    'aria-current': state.tab === to ? ('page' as const) : undefined,
  });
  return (
    <section className="admin-page experiments">
      <h1>Experiments</h1>
      <nav aria-label="Experiment data">
        <ul className="inline-links">
          <li>
            <Link to="/admin-panel/experiments/datasets">Datasets</Link>
          </li>
          <li>
            <Link to="/admin-panel/experiments/models">AI models</Link>
          </li>
        </ul>
      </nav>
      <ErrorBox
        message={
          form || result?.intent === 'add-prompt' ? undefined : (result?.error ?? page.problem)
        }
      />
      {result?.message && (
        <p className="success-box" role="status">
          {result.message}
        </p>
      )}
      <ActiveExperiments processes={page.active} />
      <Selectors
        processes={page.processes}
        implementations={page.implementations}
        process={page.process}
        implementation={implementation}
      />
      <ChoiceList
        processes={page.processes}
        implementations={page.implementations}
        process={page.process}
        implementation={implementation}
      />
      {page.process && !implementation && <RunsTools state={state} />}
      {implementation && (
        <>
          <nav className="tabs" aria-label="Implementation">
            <Link {...tab('runs')}>Implementation Runs</Link>
            {implementation.managesPrompts && <Link {...tab('prompts')}>Prompt management</Link>}
          </nav>
          {page.runs && (
            <>
              <RunsTools state={state} />
              <RunsTable state={state} runs={page.runs.runs} more={page.runs.more} />
            </>
          )}
          {page.prompts && <PromptsTab state={state} prompts={page.prompts} />}
        </>
      )}
      {implementation && page.preview && (
        <RunPreview
          run={page.preview}
          state={state}
          promotable={page.promotable}
          notPromotable={page.notPromotable}
          promoting={page.promoting}
          production={page.production}
        />
      )}
      {implementation && form && page.options && formShown && (
        <AdminModal
          title={form.mode === 'edit' ? 'Edit implementation run' : 'Add implementation run'}
          closeTo={back}
          className="run-modal"
        >
          <RunForm
            key={`${form.values.id ?? 'new'}-${form.values.steps.length}-${form.values.expanded}`}
            implementation={implementation}
            values={form.values}
            options={page.options}
            errors={result?.errors}
            error={result?.error}
            action={
              form.mode === 'edit' && form.values.id
                ? experimentsHref(state, { run: form.values.id, modal: 'edit' })
                : experimentsHref(state, { modal: 'add' })
            }
          />
        </AdminModal>
      )}
      {implementation &&
        (page.addingPrompt || (result?.intent === 'add-prompt' && result.error)) && (
          <AddPromptDialog
            state={state}
            implementation={implementation}
            typed={result?.prompt}
            error={result?.error}
          />
        )}
      {page.removingPrompt && <RemovePromptDialog state={state} prompt={page.removingPrompt} />}
    </section>
  );
}
