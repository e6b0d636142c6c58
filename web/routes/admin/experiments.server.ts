// The Experiments screen's data and actions: the chosen process and implementation (from the
// URL), its runs (10 a page) or prompts, the run or prompt a modal is open for, and the choices
// its run form offers; runs are saved (checked with the spec's messages), executed, duplicated
// and promoted, prompts added, duplicated and removed, all as the signed-in admin.
import { data, redirect } from '@remix-run/node';
import * as Ai from '#core/ai';
import { isVisibleError, VisibleError } from '#core/common';
import * as Experiments from '#core/experiments';
import * as Scoring from '#core/scoring';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { runnable, whyModelCannotRun } from './model-readiness.server';

/**
 * A prompt is at most 20,000 characters; url-encoded, any of them may take 9 bytes, so the
 * screen's forms may be larger than other pages' 16 KB.
 */
const EXPERIMENT_FORM_BYTES = 256 * 1024;
import {
  changeSteps,
  emptyRun,
  inputOf,
  STEP_ACTIONS,
  valuesFrom,
  valuesOf,
  type RunValues,
  type StepAction,
} from '#web/lib/experiment-form';
import { experimentsHref, type ScreenState } from '#web/lib/experiment-paths';
import type {
  Choice,
  FormOptions,
  ImplementationView,
  PromptRow,
  RunRow,
} from '#web/lib/experiment-views';

const EMBEDDING_KINDS: Experiments.Kind[] = ['embed', 'cluster'];

const implementationView = (implementation: Experiments.Implementation): ImplementationView => {
  const { id, name, kind, fields, managesPrompts, info } = implementation;
  return {
    id,
    name,
    words: Experiments.implementationWords(implementation),
    kind,
    fields,
    managesPrompts,
    info,
  };
};

/** The processes, each with what its experiments are for. */
const PROCESS_CHOICES: Choice[] = Experiments.PROCESSES.map(({ id, name }) => ({
  id,
  name,
  words: Experiments.PROCESS_WORDS[id],
}));

/** A process or implementation named by its id or (as the filter box sends it) its name. */
function pick<T extends Choice>(choices: T[], wanted: string | null, what: string) {
  const key = wanted?.trim().toLowerCase();
  if (!key) return undefined;
  const found = choices.find((choice) => choice.id === key || choice.name.toLowerCase() === key);
  if (!found)
    throw new VisibleError(
      'experiments.unknown_choice',
      `There is no ${what} called '${wanted!.slice(0, 100)}'`,
      400,
    );
  return found;
}

/** What the URL chose; changing the process (the filter form says which it showed) clears the implementation. */
export function screenOf(query: URLSearchParams) {
  const process = pick(Experiments.PROCESSES, query.get('process'), 'process');
  const shown = query.get('shownProcess');
  const kept = shown === null || shown === process?.id ? query.get('implementation') : null;
  const choices = process ? Experiments.implementationsOf(process.id) : [];
  const implementation = process
    ? pick(choices, kept, 'implementation in this process')
    : undefined;
  const pageText = query.get('page') ?? '1';
  const page = Number(pageText);
  if (!/^\d{1,4}$/.test(pageText) || page < 1 || page > Experiments.RUNS_PAGES) {
    throw new VisibleError('experiments.bad_page', 'This page number is not valid', 400);
  }
  const tab = query.get('tab') === 'prompts' && implementation?.managesPrompts ? 'prompts' : 'runs';
  const state: ScreenState = {
    process: process?.id,
    implementation: implementation?.id,
    tab,
    page,
  };
  return { process, choices, implementation, page, tab, state } as const;
}

async function settingChoices(implementation: Experiments.Implementation) {
  const [models, prompts] = await Promise.all([
    Ai.list(),
    implementation.fields.includes('prompt') ? Experiments.prompts(implementation.id) : [],
  ]);
  const modelType = EMBEDDING_KINDS.includes(implementation.kind) ? 'embeddings' : 'gpt';
  const { ready, notOffered } = runnable(models.filter((model) => model.modelType === modelType));
  return {
    models: ready.map((model) => ({ id: model.id, name: Ai.displayName(model) })),
    notOffered,
    thresholdWords: Experiments.thresholdWords(implementation.kind),
    prompts: prompts.map((prompt) => ({ id: prompt.id, name: prompt.title })),
  };
}

/** The run form's choices: datasets of the implementation's groups, models, prompts, steps. */
export async function formOptions(
  implementation: Experiments.Implementation,
): Promise<FormOptions> {
  const chain = implementation.kind === 'chain';
  const steps = chain ? Experiments.stepChoices(implementation) : [];
  const [datasets, own, stepChoices] = await Promise.all([
    Experiments.datasets(),
    settingChoices(implementation),
    Promise.all(
      steps.map(async (step) => ({
        id: step.id,
        name: step.name,
        fields: step.fields,
        ...(await settingChoices(step)),
      })),
    ),
  ]);
  const { steps: stepsMessage, ...messages } = Experiments.RUN_MESSAGES;
  return {
    ...own,
    datasets: Experiments.datasetsOnce(datasets)
      .filter((dataset) => implementation.groups.includes(dataset.group))
      .map((dataset) => ({
        id: dataset.id,
        name: `${dataset.name} (${Experiments.GROUP_WORDS[dataset.group].label})`,
      })),
    steps: stepChoices,
    preprocessTypes: Experiments.PREPROCESS_TYPES,
    concatenationTypes: Experiments.CONCATENATION_TYPES,
    relevance: Experiments.RELEVANCE_OPTIONS,
    messages: { ...messages, steps: stepsMessage },
    limits: {
      numOfPicks: Experiments.RUN_LIMITS.numOfPicks,
      articleLimit: Experiments.RUN_LIMITS.articleLimit,
      steps: Experiments.RUN_LIMITS.steps,
    },
  };
}

const rowOf = ({ id, name, status, executedAt, canExecute }: Experiments.RunView): RunRow => ({
  id,
  name,
  status,
  executedAt,
  canExecute,
});

/** A run of this implementation, or a 404 (a run id of another implementation is not shown here). */
async function runOf(id: string, implementation: Experiments.Implementation) {
  const run = await Experiments.run(id.slice(0, 100));
  if (!run || run.expImplementationId !== implementation.id) {
    throw new VisibleError('experiments.run_not_found', 'This run does not exist', 404);
  }
  return run;
}

/** What the screen shows: every key present, empty where the URL chose nothing. */
export type ExperimentsPage = {
  processes: Choice[];
  active: Awaited<ReturnType<typeof Experiments.activeExperiments>>;
  /** Why the URL's choice could not be shown. */
  problem?: string;
  state: ScreenState;
  process?: Choice;
  implementations: Choice[];
  implementation?: ImplementationView;
  runs?: { runs: RunRow[]; page: number; more: boolean };
  prompts?: PromptRow[];
  /** The run the preview modal shows (`?run=`). */
  preview?: Experiments.RunView;
  /** The previewed run can be promoted: a successful run that scores articles. */
  promotable: boolean;
  /** Why a successful scoring run is not offered for promotion (already production's, or its model cannot run). */
  notPromotable?: string;
  /** The promote question is open (`&promote=1`, a promotable run only). */
  promoting: boolean;
  /** While it is: what production scores with now, and its revision (the promote is conditioned on it). */
  production?: { revision: number; now: string };
  form?: { mode: 'add' | 'edit'; values: RunValues };
  options?: FormOptions;
  addingPrompt: boolean;
  removingPrompt?: PromptRow;
};

const promptRow = ({ id, title, prompt, createdAt }: PromptRow): PromptRow => ({
  id,
  title,
  prompt,
  createdAt,
});

export async function experimentsLoader(request: Request) {
  await requireAdmin(request);
  const query = new URL(request.url).searchParams;
  const page: ExperimentsPage = {
    processes: PROCESS_CHOICES,
    active: await Experiments.activeExperiments(),
    state: {},
    implementations: [],
    promotable: false,
    promoting: false,
    addingPrompt: false,
  };
  try {
    const screen = screenOf(query);
    const { implementation, state } = screen;
    // The filter form sends names; the address keeps ids (and forgets which process it showed).
    if (
      query.has('shownProcess') ||
      (query.has('process') && query.get('process') !== state.process) ||
      (query.has('implementation') && query.get('implementation') !== state.implementation)
    ) {
      throw redirect(experimentsHref(state));
    }
    page.state = state;
    page.process = screen.process;
    page.implementations = screen.choices.map((choice) => ({
      id: choice.id,
      name: choice.name,
      words: Experiments.implementationWords(choice),
    }));
    page.implementation = implementation && implementationView(implementation);
    if (!implementation) return page;
    const runId = query.get('run');
    const modal = query.get('modal');
    const removeId = query.get('removePrompt');
    const [runs, prompts, preview] = await Promise.all([
      state.tab === 'runs' ? Experiments.runs(implementation.id, { page: screen.page }) : undefined,
      state.tab === 'prompts' ? Experiments.prompts(implementation.id) : undefined,
      runId ? runOf(runId, implementation) : undefined,
    ]);
    const editing = modal === 'edit' && preview?.canExecute ? preview : undefined;
    const opensForm = modal === 'add' || Boolean(editing);
    page.runs = runs && { ...runs, runs: runs.runs.map(rowOf) };
    page.prompts = prompts?.map(promptRow);
    page.preview = editing ? undefined : preview;
    const scoredArticles =
      preview?.status === 'Success' && Experiments.isPromotable(implementation);
    page.notPromotable = scoredArticles ? await whyNotPromotable(preview) : undefined;
    page.promotable = scoredArticles && !page.notPromotable;
    page.promoting = query.get('promote') === '1' && page.promotable;
    if (page.promoting) page.production = await productionNow();
    if (opensForm) {
      page.form = editing
        ? { mode: 'edit', values: valuesOf(editing) }
        : { mode: 'add', values: emptyRun() };
      page.options = await formOptions(implementation);
    }
    page.addingPrompt = state.tab === 'prompts' && modal === 'add-prompt';
    page.removingPrompt = page.prompts?.find((prompt) => prompt.id === removeId);
    return page;
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ ...page, problem: error.message }, { status: error.status });
  }
}

/** A run (or a step of its chain) naming a model that cannot run here is refused, not queued to fail. */
async function refuseModelsThatCannotRun(runId: string): Promise<void> {
  const run = await Experiments.run(runId);
  if (!run) return;
  const ids = [run.input, ...(run.input.steps ?? [])].flatMap((step) =>
    step.expGptModelId ? [step.expGptModelId] : [],
  );
  for (const model of await Promise.all([...new Set(ids)].map((modelId) => Ai.byId(modelId)))) {
    const why = model && whyModelCannotRun(model);
    if (why) {
      throw new VisibleError(
        'experiments.model_cannot_run',
        `${Ai.displayName(model)} cannot run here: ${why}`,
        400,
      );
    }
  }
}

/** Why a successful scoring run's prompt and model are not offered for promotion, if they are not. */
async function whyNotPromotable(run: Experiments.RunView): Promise<string | undefined> {
  const { expPromptId, expGptModelId } = run.input;
  const [setup, model] = await Promise.all([
    Scoring.productionSetup().catch((error: unknown) => {
      if (error instanceof Ai.AiNotConfigured) return undefined;
      throw error;
    }),
    expGptModelId ? Ai.byId(expGptModelId) : undefined,
  ]);
  if (setup?.prompt.id === expPromptId && setup?.model.id === expGptModelId) {
    return `${Scoring.PRODUCTION_MESSAGES.already}.`;
  }
  const why = model && whyModelCannotRun(model);
  return why && `${Ai.displayName(model)} cannot score in production here: ${why}.`;
}

/** Production's scoring setup in words, and its revision. */
async function productionNow(): Promise<{ revision: number; now: string }> {
  try {
    const setup = await Scoring.productionSetup();
    return {
      revision: setup.revision,
      now: `"${setup.prompt.title}" with ${Ai.displayName(setup.model)}`,
    };
  } catch (error) {
    // AI_GPT_MODEL names a model not among the AI models: scoring fails until one is promoted.
    if (!(error instanceof Ai.AiNotConfigured)) throw error;
    return { revision: 0, now: error.message };
  }
}

export type ActionResult = {
  intent: string;
  message?: string;
  error?: string;
  /** checkRun's messages per field (`steps.{i}.{field}` for a chain's steps). */
  errors?: Record<string, string>;
  /** The run form as typed: refused, or after a step button without JavaScript. */
  form?: { mode: 'add' | 'edit'; values: RunValues };
  /** The prompt form as typed, when refused. */
  prompt?: { title: string; prompt: string };
};

const fieldsOf = (id: string) => Experiments.implementation(id)?.fields ?? [];

/** The run the form describes, for checkRun and the save. */
export function runFormOf(
  values: RunValues,
  implementation: Experiments.Implementation,
  systemUserId: string,
): Experiments.RunForm {
  return {
    name: values.name,
    comments: values.comments,
    expImplementationId: implementation.id,
    input: inputOf(values, implementation.fields, implementation.kind === 'chain', fieldsOf),
    systemUserId,
  };
}

async function saveRun(
  values: RunValues,
  implementation: Experiments.Implementation,
  systemUserId: string,
) {
  const form = runFormOf(values, implementation, systemUserId);
  const errors = await Experiments.checkRun(form);
  if (Object.keys(errors).length > 0) return { errors };
  const saved =
    values.id === undefined
      ? await Experiments.addRun(form)
      : await Experiments.updateRun({ ...form, id: values.id, revision: values.revision ?? -1 });
  return { saved };
}

export async function experimentsAction(request: Request) {
  const admin = await requireAdmin(request);
  const systemUserId = admin.id;
  let intent = 'unknown';
  let typed: ActionResult['form'];
  let typedPrompt: ActionResult['prompt'];
  try {
    const query = new URL(request.url).searchParams;
    const form = await readForm(request, { maxBytes: EXPERIMENT_FORM_BYTES });
    const [verb = '', at = ''] = String(form.get('intent') ?? '').split(':');
    intent = verb;
    const id = String(form.get('id') ?? '').slice(0, 100);
    const { implementation, state } = screenOf(query);
    if (verb === 'save' || STEP_ACTIONS.includes(verb as StepAction)) {
      if (!implementation) throw chooseFirst();
      const values = valuesFrom(form);
      typed = { mode: values.id ? 'edit' : 'add', values };
      if (verb !== 'save') {
        const changed = changeSteps(
          values,
          verb as StepAction,
          Number(at),
          Experiments.RUN_LIMITS.steps,
        );
        return { intent, form: { ...typed, values: changed } } satisfies ActionResult;
      }
      const { errors, saved } = await saveRun(values, implementation, systemUserId);
      if (errors) {
        // A chain opens its first step with a message, so the message is seen.
        const stepIndex = Object.keys(errors)
          .map((key) => /^steps\.(\d+)\./.exec(key)?.[1])
          .find((index) => index !== undefined);
        const shown = stepIndex === undefined ? values : { ...values, expanded: Number(stepIndex) };
        return data(
          {
            intent,
            error: Object.values(errors)[0],
            errors,
            form: { ...typed, values: shown },
          } satisfies ActionResult,
          { status: 400 },
        );
      }
      return redirect(experimentsHref(state, { run: saved.id }));
    }
    switch (verb) {
      case 'execute': {
        await refuseModelsThatCannotRun(id);
        const run = await Experiments.executeRun({ id, systemUserId });
        return { intent, message: `Run ${run.name} queued` } satisfies ActionResult;
      }
      case 'duplicate': {
        const copy = await Experiments.duplicateRun({ id, systemUserId });
        return redirect(experimentsHref(state, { run: copy.id }));
      }
      case 'promote': {
        // Conditioned on the production setup the question showed (its revision).
        const revision = form.get('revision');
        const { setup, queued } = await Experiments.promoteRun({
          id,
          systemUserId,
          ...(revision !== null && { revision: Number(revision) }),
        });
        return {
          intent,
          message: `Production scoring now uses "${setup.prompt.title}" with ${Ai.displayName(setup.model)}. ${
            queued
              ? 'Scoring the newest articles with it is queued.'
              : 'Scoring is busy; its next scheduled run scores with it.'
          }`,
        } satisfies ActionResult;
      }
      case 'add-prompt': {
        if (!implementation) throw chooseFirst();
        // As typed (the form's body is bounded): a prompt over the limit is refused with its
        // message, never saved cut short.
        typedPrompt = {
          title: String(form.get('title') ?? '').slice(0, 500),
          prompt: String(form.get('prompt') ?? ''),
        };
        await Experiments.addPrompt({
          expImplementationId: implementation.id,
          ...typedPrompt,
          systemUserId,
        });
        // The modal closes; the new prompt heads the list.
        return redirect(experimentsHref(state));
      }
      case 'duplicate-prompt': {
        const prompt = await Experiments.duplicatePrompt({ id, systemUserId });
        return { intent, message: `Prompt ${prompt.title} added` } satisfies ActionResult;
      }
      case 'remove-prompt': {
        await Experiments.removePrompt({ id });
        return redirect(experimentsHref(state));
      }
      default:
        throw new VisibleError('request.unknown_intent', 'This action is not known', 400);
    }
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data(
      { intent, error: error.message, form: typed, prompt: typedPrompt } satisfies ActionResult,
      { status: error.status },
    );
  }
}

const chooseFirst = () =>
  new VisibleError(
    'experiments.no_implementation',
    'Please choose a process and an implementation',
    400,
  );
