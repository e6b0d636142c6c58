// Implementation runs: a named setup of one implementation on one dataset, executed as a job. A
// run's status is its latest execution's process (Queued, Running, Success, Failed), so it can
// never disagree with the job runtime. Every write is conditioned on the run as it was read: an
// edit on its revision and execution, an execution on its revision (two at once: the run's job
// slot lets one through).
import * as v from 'valibot';
import * as Ai from '#core/ai';
import { freeText, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import {
  CONCATENATION_TYPES,
  implementation,
  PREPROCESS_TYPES,
  promptsOf,
  RELEVANCE_OPTIONS,
  RUN_MESSAGES,
  stepChoices,
  type Field,
  type Implementation,
} from './catalog';
import { datasetById } from './datasets';
import { runExperiment } from './job';
import { outputOf } from './results';
import { ExperimentRunEntity, type RunItem } from './run-entity';
import { readRun } from './run-store';
import type { ChainStep, RunInput, RunStatus, RunView, StepSettings } from './types';

export const RUNS_PAGE_SIZE = 10;
/** The furthest page shown (1,000 runs of one implementation): a page reads the ones before it. */
export const RUNS_PAGES = 100;
/** How long a run that names an execution not yet queued counts as Queued. */
export const QUEUEING_MS = 60_000;
export const RUN_LIMITS = { articleLimit: 200, numOfPicks: 4, steps: 5, comments: 2_000 } as const;

export const RUN_REFUSALS = {
  unknown: 'This implementation run no longer exists',
  implementation: 'Please select an implementation',
  busy: 'Only a run without status or a Failed run can be executed or edited',
  changed: 'The run changed meanwhile. Look at it again before you execute or edit it.',
  tooLong: 'A name has at most 200 characters',
  comments: `Comments have at most ${RUN_LIMITS.comments} characters`,
  steps: `A chain has at most ${RUN_LIMITS.steps} steps`,
  stepImplementation: 'Chaining implementations cannot be added as steps',
  stepDataset:
    'This step cannot read the chosen dataset: choose a dataset of its group, or cluster stories in a step before it',
  stepPool:
    'This step cannot read what the step before passed on: articles and stories do not mix, unless a clustering step comes between',
} as const;

/** What the add and edit forms send (the spec's add-implementation-run call). */
export type RunForm = {
  name: string;
  comments?: string;
  expImplementationId: string;
  input: RunInput;
  systemUserId: string;
};

const isWhole = (n: unknown, min: number, max: number) =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** One step's (or a single run's) field errors, keyed by field; the spec's messages. */
async function checkSettings(
  owner: Implementation,
  settings: StepSettings,
  prefix: string,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const has = (field: Field) => owner.fields.includes(field);
  if (has('model')) {
    const model = settings.expGptModelId ? await Ai.byId(settings.expGptModelId) : undefined;
    const wanted = owner.kind === 'embed' || owner.kind === 'cluster' ? 'embeddings' : 'gpt';
    if (!model || model.modelType !== wanted) errors[`${prefix}expGptModelId`] = RUN_MESSAGES.model;
  }
  if (has('prompt')) {
    const prompt = settings.expPromptId ? await Prompts.byId(settings.expPromptId) : undefined;
    if (!prompt || prompt.isDeleted || prompt.expImplementationId !== promptsOf(owner)) {
      errors[`${prefix}expPromptId`] = RUN_MESSAGES.prompt;
    }
  }
  if (has('numOfPicks') && !isWhole(settings.numOfPicks, 1, RUN_LIMITS.numOfPicks)) {
    errors[`${prefix}numOfPicks`] = RUN_MESSAGES.numOfPicks;
  }
  if (has('articleLimit') && !isWhole(settings.articleLimit, 1, RUN_LIMITS.articleLimit)) {
    errors[`${prefix}articleLimit`] = RUN_MESSAGES.articleLimit;
  }
  if (has('preprocessType') && !PREPROCESS_TYPES.includes(settings.preprocessType!)) {
    errors[`${prefix}preprocessType`] = RUN_MESSAGES.preprocessType;
  }
  if (has('concatenationType') && !CONCATENATION_TYPES.includes(settings.concatenationType!)) {
    errors[`${prefix}concatenationType`] = RUN_MESSAGES.concatenationType;
  }
  if (has('selectionOfRelevance')) {
    const chosen = settings.selectionOfRelevance ?? [];
    const known = chosen.every((label) => (RELEVANCE_OPTIONS as readonly string[]).includes(label));
    if (chosen.length === 0 || !known) {
      errors[`${prefix}selectionOfRelevance`] = RUN_MESSAGES.selectionOfRelevance;
    }
  }
  // Enforced (ADR 0041): a threshold, when given, is between 0 and 1.
  if (has('threshold') && settings.threshold !== undefined) {
    const t = settings.threshold;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1) {
      errors[`${prefix}threshold`] = RUN_MESSAGES.threshold;
    }
  }
  return errors;
}

/**
 * Every field error of a run form, keyed by field ('steps.{i}.{field}' inside a chain): the
 * spec's messages. Empty when the run can be saved and executed.
 */
export async function checkRun(form: RunForm): Promise<Record<string, string>> {
  const owner = implementation(form.expImplementationId);
  if (!owner) return { expImplementationId: RUN_REFUSALS.implementation };
  const errors: Record<string, string> = {};
  const name = typeof form.name === 'string' ? form.name.trim() : '';
  if (!name) errors.name = RUN_MESSAGES.name;
  else if (name.length > 200) errors.name = RUN_REFUSALS.tooLong;
  if ((form.comments ?? '').length > RUN_LIMITS.comments) errors.comments = RUN_REFUSALS.comments;
  const input = form.input ?? ({} as RunInput);
  const dataset = typeof input.dataset === 'string' ? await datasetById(input.dataset) : undefined;
  if (!dataset || !owner.groups.includes(dataset.group)) errors.dataset = RUN_MESSAGES.dataset;
  if (owner.kind !== 'chain') return { ...errors, ...(await checkSettings(owner, input, '')) };
  const steps = Array.isArray(input.steps) ? input.steps : [];
  if (steps.length === 0) errors.steps = RUN_MESSAGES.steps;
  if (steps.length > RUN_LIMITS.steps) errors.steps = RUN_REFUSALS.steps;
  const choices = stepChoices(owner);
  // What the steps before passed on (scores, picks, similarities narrow the next step's items):
  // articles or stories. A clustering step starts afresh; preprocessing keeps what came before.
  let passedOn: Implementation['material'] | undefined;
  for (const [index, step] of steps.slice(0, RUN_LIMITS.steps).entries()) {
    const stepOwner = choices.find((choice) => choice.id === step?.expImplementationId);
    if (!stepOwner) {
      errors[`steps.${index}.expImplementationId`] = implementation(step?.expImplementationId ?? '')
        ? RUN_REFUSALS.stepImplementation
        : RUN_REFUSALS.implementation;
      continue;
    }
    // A step reads the dataset, or the stories a clustering step before it made.
    const storiesMade = steps
      .slice(0, index)
      .some((before) => implementation(before?.expImplementationId ?? '')?.kind === 'cluster');
    const reads =
      !dataset ||
      stepOwner.groups.includes(dataset.group) ||
      (stepOwner.material === 'stories' && storiesMade);
    const narrows = ['score', 'categorize', 'pick', 'embed'].includes(stepOwner.kind);
    if (!reads) errors[`steps.${index}.expImplementationId`] = RUN_REFUSALS.stepDataset;
    else if (narrows && passedOn && passedOn !== stepOwner.material) {
      errors[`steps.${index}.expImplementationId`] = RUN_REFUSALS.stepPool;
    }
    if (narrows) passedOn = stepOwner.material;
    if (stepOwner.kind === 'cluster') passedOn = undefined;
    Object.assign(errors, await checkSettings(stepOwner, step, `steps.${index}.`));
  }
  return errors;
}

async function refuseInvalid(form: RunForm): Promise<void> {
  const errors = await checkRun(form);
  const first = Object.values(errors)[0];
  if (first) throw new VisibleError('experiment.invalid_run', first, 400);
}

/** Only the fields the implementation uses are kept: what the run page shows is what runs. */
function cleanInput(owner: Implementation, input: RunInput): RunInput {
  const settings = (from: StepSettings, fields: Field[]): StepSettings => ({
    ...(fields.includes('model') && { expGptModelId: from.expGptModelId }),
    ...(fields.includes('prompt') && { expPromptId: from.expPromptId }),
    ...(fields.includes('numOfPicks') && { numOfPicks: from.numOfPicks }),
    ...(fields.includes('articleLimit') && { articleLimit: from.articleLimit }),
    ...(fields.includes('preprocessType') && { preprocessType: from.preprocessType }),
    ...(fields.includes('concatenationType') && { concatenationType: from.concatenationType }),
    ...(fields.includes('threshold') &&
      from.threshold !== undefined && { threshold: from.threshold }),
    ...(fields.includes('selectionOfRelevance') && {
      selectionOfRelevance: [...new Set(from.selectionOfRelevance)],
    }),
  });
  if (owner.kind !== 'chain') return { dataset: input.dataset, ...settings(input, owner.fields) };
  return {
    dataset: input.dataset,
    steps: (input.steps ?? []).map((step): ChainStep => ({
      expImplementationId: step.expImplementationId,
      ...settings(step, implementation(step.expImplementationId)!.fields),
    })),
  };
}

const FormShape = v.object({
  name: v.pipe(freeText({ max: 200, tooLong: RUN_REFUSALS.tooLong, missing: RUN_MESSAGES.name })),
  comments: v.optional(
    freeText({ max: RUN_LIMITS.comments, tooLong: RUN_REFUSALS.comments, lines: 'multi' }),
    '',
  ),
  expImplementationId: v.string(RUN_REFUSALS.implementation),
  input: v.looseObject({ dataset: v.string(RUN_MESSAGES.dataset) }),
  systemUserId: v.optional(v.string(), '-'),
});

async function statusOf(item: RunItem): Promise<{ status?: RunStatus; error?: string }> {
  if (!item.processId) return {};
  const process = await Jobs.byId(item.processId);
  if (!process) {
    // Named but not queued yet: the execution is being queued (a second execution or an edit in
    // that moment is refused). One that never got queued (a crash in between) frees the run.
    const since = Date.now() - Date.parse(item.executedAt ?? '');
    return since >= 0 && since < QUEUEING_MS ? { status: 'Queued' } : {};
  }
  return { status: process.status, error: process.error };
}

/** A stored run as the screen shows it: its execution's status, and its output when asked. */
export async function viewOf(item: RunItem, withOutput: boolean): Promise<RunView> {
  const { status, error } = await statusOf(item);
  const output =
    withOutput && status === 'Success' && item.processId
      ? await outputOf(item.processId)
      : undefined;
  return {
    id: item.id,
    expImplementationId: item.expImplementationId,
    name: item.name,
    comments: item.comments,
    input: JSON.parse(item.input) as RunInput,
    ...(output && { output }),
    ...(status && { status }),
    ...(item.executedAt && { executedAt: item.executedAt }),
    ...(status === 'Failed' && error && { error }),
    createdAt: item.createdAt,
    systemUserId: item.systemUserId,
    revision: item.revision,
    canExecute: !status || status === 'Failed',
  };
}

/** One run with its output (the preview and the run's page). */
export async function run(id: string): Promise<RunView | undefined> {
  const item = await readRun(id);
  return item && viewOf(item, true);
}

/**
 * An implementation's runs, newest first, RUNS_PAGE_SIZE a page: reads at most the pages up to
 * the one shown, and each shown run's process.
 */
export async function runs(
  implementationId: string,
  { page = 1 }: { page?: number } = {},
): Promise<{ runs: RunView[]; page: number; more: boolean }> {
  const shown = Number.isInteger(page) && page >= 1 && page <= RUNS_PAGES ? page : 1;
  const want = shown * RUNS_PAGE_SIZE + 1;
  const items: RunItem[] = [];
  let cursor: string | null = null;
  do {
    const result: { data: RunItem[]; cursor: string | null } = await ExperimentRunEntity.query
      .byImplementation({ expImplementationId: implementationId })
      .go({ order: 'desc', limit: want - items.length, cursor });
    items.push(...result.data);
    cursor = result.cursor;
  } while (cursor && items.length < want);
  const pageItems = items.slice((shown - 1) * RUNS_PAGE_SIZE, shown * RUNS_PAGE_SIZE);
  return {
    runs: await Promise.all(pageItems.map((item) => viewOf(item, false))),
    page: shown,
    more: items.length > shown * RUNS_PAGE_SIZE,
  };
}

const parseForm = (form: RunForm) => {
  const parsed = v.safeParse(FormShape, form);
  if (!parsed.success) {
    throw new VisibleError(
      'experiment.invalid_run',
      parsed.issues[0]?.message ?? RUN_MESSAGES.name,
      400,
    );
  }
  return { ...form, ...parsed.output, input: form.input };
};

/** Adds a run (no status yet: it runs when executed). */
export async function addRun(form: RunForm): Promise<RunView> {
  const parsed = parseForm(form);
  await refuseInvalid(parsed);
  const owner = implementation(parsed.expImplementationId)!;
  const item: RunItem = {
    id: ulid(),
    expImplementationId: owner.id,
    name: parsed.name.trim(),
    comments: parsed.comments ?? '',
    input: JSON.stringify(cleanInput(owner, parsed.input)),
    createdAt: new Date().toISOString(),
    systemUserId: parsed.systemUserId,
    revision: 0,
  };
  await ExperimentRunEntity.create(item).go();
  return viewOf(item, false);
}

/** Edits a run without status or Failed, as it was read (its revision). */
export async function updateRun(
  form: RunForm & { id: string; revision: number },
): Promise<RunView> {
  const parsed = parseForm(form);
  const item = await readRun(form.id);
  if (!item || item.expImplementationId !== parsed.expImplementationId) {
    throw new VisibleError('experiment.unknown_run', RUN_REFUSALS.unknown, 404);
  }
  const { status } = await statusOf(item);
  if (status && status !== 'Failed')
    throw new VisibleError('experiment.busy', RUN_REFUSALS.busy, 409);
  if (item.revision !== form.revision) {
    throw new VisibleError('experiment.changed', RUN_REFUSALS.changed, 409);
  }
  await refuseInvalid(parsed);
  const owner = implementation(item.expImplementationId)!;
  const changes = {
    name: parsed.name.trim(),
    comments: parsed.comments ?? '',
    input: JSON.stringify(cleanInput(owner, parsed.input)),
    revision: item.revision + 1,
  };
  try {
    await ExperimentRunEntity.patch({ id: item.id })
      .set(changes)
      .where((attr, op) =>
        // Decided from this revision and this execution (none, or the Failed one read).
        item.processId
          ? `${op.eq(attr.revision, item.revision)} AND ${op.eq(attr.processId, item.processId)}`
          : `${op.eq(attr.revision, item.revision)} AND ${op.notExists(attr.processId)}`,
      )
      .go();
  } catch (error) {
    if (isConditionFailure(error))
      throw new VisibleError('experiment.changed', RUN_REFUSALS.changed, 409);
    throw error;
  }
  return viewOf({ ...item, ...changes }, false);
}

/** A copy of a run, without status, '(copy)' after its name. */
export async function duplicateRun({ id, systemUserId }: { id: string; systemUserId: string }) {
  const item = await readRun(id);
  if (!item) throw new VisibleError('experiment.unknown_run', RUN_REFUSALS.unknown, 404);
  const copy: RunItem = {
    id: ulid(),
    expImplementationId: item.expImplementationId,
    name: `${item.name} (copy)`.slice(0, 200),
    comments: item.comments,
    input: item.input,
    createdAt: new Date().toISOString(),
    systemUserId: systemUserId || '-',
    revision: 0,
  };
  await ExperimentRunEntity.create(copy).go();
  return viewOf(copy, false);
}

/**
 * Executes a run without status or Failed: names the execution on the run, conditioned on the
 * revision read (of two executions or an edit at once, one lands), then queues its job under that
 * id in the run's own slot (two runs go at once, production's slots are never taken). The job runs
 * the run only at that revision: an edit that lands before it is queued ends it superseded.
 */
export async function executeRun({
  id,
  systemUserId,
}: {
  id: string;
  systemUserId: string;
}): Promise<RunView> {
  const item = await readRun(id);
  if (!item) throw new VisibleError('experiment.unknown_run', RUN_REFUSALS.unknown, 404);
  const { status } = await statusOf(item);
  if (status && status !== 'Failed')
    throw new VisibleError('experiment.busy', RUN_REFUSALS.busy, 409);
  const form: RunForm = {
    name: item.name,
    comments: item.comments,
    expImplementationId: item.expImplementationId,
    input: JSON.parse(item.input) as RunInput,
    systemUserId,
  };
  await refuseInvalid(form);
  // The run names its execution first, conditioned on the revision read: of two executions
  // (or an edit) at once, one lands; then the job is queued under that id.
  const executed = {
    processId: ulid(),
    executedAt: new Date().toISOString(),
    revision: item.revision + 1,
  };
  try {
    await ExperimentRunEntity.patch({ id: item.id })
      .set(executed)
      .where((attr, op) => op.eq(attr.revision, item.revision))
      .go();
  } catch (error) {
    if (isConditionFailure(error))
      throw new VisibleError('experiment.changed', RUN_REFUSALS.changed, 409);
    throw error;
  }
  // A queueing failure ends the process Failed (Jobs.enqueue), so the run can be executed again.
  await Jobs.enqueue(
    runExperiment,
    { runId: item.id, revision: executed.revision },
    systemUserId || '-',
    {
      id: executed.processId,
    },
  );
  return viewOf({ ...item, ...executed }, false);
}
export { ExperimentRunEntity };
