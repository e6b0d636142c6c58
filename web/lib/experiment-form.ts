// The run form's values as the browser holds them (text, as typed) and their way to and from a
// run's input: one shape for a single run and a chain's steps, round-tripped by the server
// without JavaScript (add, expand or remove a step) and kept when a save is refused.
import type { ChainStep, Field, RunInput, StepSettings } from '#core/experiments';

/** A setting's form name (and checkRun's key): the spec's input names. */
export const INPUT_OF: Record<Field, keyof Settings> = {
  model: 'expGptModelId',
  prompt: 'expPromptId',
  numOfPicks: 'numOfPicks',
  articleLimit: 'articleLimit',
  preprocessType: 'preprocessType',
  concatenationType: 'concatenationType',
  threshold: 'threshold',
  selectionOfRelevance: 'selectionOfRelevance',
};

export type Settings = {
  expGptModelId: string;
  expPromptId: string;
  numOfPicks: string;
  articleLimit: string;
  preprocessType: string;
  concatenationType: string;
  threshold: string;
  selectionOfRelevance: string[];
};
export type StepValues = Settings & { expImplementationId: string };

export type RunValues = {
  id?: string;
  revision?: number;
  name: string;
  comments: string;
  dataset: string;
  settings: Settings;
  steps: StepValues[];
  /** The chain step shown open (-1: none). */
  expanded: number;
};

const TEXT_SETTINGS = [
  'expGptModelId',
  'expPromptId',
  'numOfPicks',
  'articleLimit',
  'preprocessType',
  'concatenationType',
  'threshold',
] as const;

/** A chain has at most this many steps (a bound on what one form may carry). */
export const MAX_STEPS = 10;
const MAX_TEXT = 2_000;
/**
 * Comments are kept as typed past their limit (core's RUN_LIMITS.comments, 2,000), so the save is
 * refused with its message instead of storing them cut short; the form's body bounds them.
 */
const MAX_COMMENTS = 20_000;

export const emptySettings = (): Settings => ({
  expGptModelId: '',
  expPromptId: '',
  numOfPicks: '',
  articleLimit: '',
  preprocessType: '',
  concatenationType: '',
  threshold: '',
  selectionOfRelevance: [],
});

export const emptyRun = (): RunValues => ({
  name: '',
  comments: '',
  dataset: '',
  settings: emptySettings(),
  steps: [],
  expanded: -1,
});

function settingsFrom(form: URLSearchParams, prefix: string): Settings {
  const settings = emptySettings();
  for (const key of TEXT_SETTINGS) {
    settings[key] = String(form.get(`${prefix}${key}`) ?? '').slice(0, MAX_TEXT);
  }
  settings.selectionOfRelevance = form
    .getAll(`${prefix}selectionOfRelevance`)
    .map((label) => label.slice(0, 100))
    .slice(0, 50);
  return settings;
}

/** What the form sent: the run's fields and each step's (`steps.{i}.{field}`). */
export function valuesFrom(form: URLSearchParams): RunValues {
  const stepCount = Math.min(Number(form.get('stepCount')) || 0, MAX_STEPS);
  const revision = Number(form.get('revision'));
  const expanded = Number(form.get('expanded'));
  return {
    id: String(form.get('id') ?? '').slice(0, 100) || undefined,
    revision: Number.isInteger(revision) ? revision : undefined,
    name: String(form.get('name') ?? '').slice(0, MAX_TEXT),
    comments: String(form.get('comments') ?? '').slice(0, MAX_COMMENTS),
    dataset: String(form.get('dataset') ?? '').slice(0, MAX_TEXT),
    settings: settingsFrom(form, ''),
    steps: Array.from({ length: Math.max(stepCount, 0) }, (_, index) => ({
      ...settingsFrom(form, `steps.${index}.`),
      expImplementationId: String(form.get(`steps.${index}.expImplementationId`) ?? '').slice(
        0,
        100,
      ),
    })),
    expanded: Number.isInteger(expanded) && expanded < stepCount ? expanded : -1,
  };
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function settingsOf(input: StepSettings): Settings {
  return {
    expGptModelId: text(input.expGptModelId),
    expPromptId: text(input.expPromptId),
    numOfPicks: text(input.numOfPicks),
    articleLimit: text(input.articleLimit),
    preprocessType: text(input.preprocessType),
    concatenationType: text(input.concatenationType),
    threshold: text(input.threshold),
    selectionOfRelevance: input.selectionOfRelevance ?? [],
  };
}

/** A stored run as the edit form starts from it (its steps collapsed). */
export function valuesOf(run: {
  id: string;
  revision: number;
  name: string;
  comments: string;
  input: RunInput;
}): RunValues {
  return {
    id: run.id,
    revision: run.revision,
    name: run.name,
    comments: run.comments,
    dataset: run.input.dataset,
    settings: settingsOf(run.input),
    steps: (run.input.steps ?? []).map((step) => ({
      ...settingsOf(step),
      expImplementationId: step.expImplementationId,
    })),
    expanded: -1,
  };
}

/** A number as typed: undefined when empty, NaN when not a number (the check then refuses it). */
const numberOf = (value: string) => (value.trim() === '' ? undefined : Number(value));
const optional = (value: string) => value || undefined;

/** Only the settings the implementation asks for. */
function settingsInput(settings: Settings, fields: Field[]): StepSettings {
  const asked = new Set(fields);
  return {
    ...(asked.has('model') && { expGptModelId: optional(settings.expGptModelId) }),
    ...(asked.has('prompt') && { expPromptId: optional(settings.expPromptId) }),
    ...(asked.has('numOfPicks') && { numOfPicks: numberOf(settings.numOfPicks) }),
    ...(asked.has('articleLimit') && { articleLimit: numberOf(settings.articleLimit) }),
    ...(asked.has('preprocessType') && {
      preprocessType: optional(settings.preprocessType) as StepSettings['preprocessType'],
    }),
    ...(asked.has('concatenationType') && {
      concatenationType: optional(settings.concatenationType) as StepSettings['concatenationType'],
    }),
    ...(asked.has('threshold') && { threshold: numberOf(settings.threshold) }),
    ...(asked.has('selectionOfRelevance') && {
      selectionOfRelevance: settings.selectionOfRelevance,
    }),
  };
}

/** The run's input: a single run's asked settings, or a chain's steps with each step's own. */
export function inputOf(
  values: RunValues,
  fields: Field[],
  chain: boolean,
  fieldsOf: (implementationId: string) => Field[],
): RunInput {
  if (!chain) return { dataset: values.dataset, ...settingsInput(values.settings, fields) };
  return {
    dataset: values.dataset,
    steps: values.steps.map((step): ChainStep => ({
      expImplementationId: step.expImplementationId,
      ...settingsInput(step, fieldsOf(step.expImplementationId)),
    })),
  };
}

/** The spec's messages, as the browser shows them on blur (the server's checkRun has the last word). */
export type RunMessages = {
  name: string;
  dataset: string;
  model: string;
  prompt: string;
  numOfPicks: string;
  articleLimit: string;
  preprocessType: string;
  concatenationType: string;
  selectionOfRelevance: string;
  threshold: string;
  steps: string;
};

/** The bounds of the run form's numbers (core's RUN_LIMITS). */
export type RunLimits = { numOfPicks: number; articleLimit: number; steps: number };

const wholeUpTo = (value: string, max: number) => {
  const number = Number(value);
  return value.trim() !== '' && Number.isInteger(number) && number >= 1 && number <= max;
};

/** The message for one field as it stands, or undefined when it is fine. */
export function fieldMessage(
  field: Field,
  settings: Settings,
  messages: RunMessages,
  limits: RunLimits,
): string | undefined {
  switch (field) {
    case 'model':
      return settings.expGptModelId ? undefined : messages.model;
    case 'prompt':
      return settings.expPromptId ? undefined : messages.prompt;
    case 'numOfPicks':
      return wholeUpTo(settings.numOfPicks, limits.numOfPicks) ? undefined : messages.numOfPicks;
    case 'articleLimit':
      return wholeUpTo(settings.articleLimit, limits.articleLimit)
        ? undefined
        : messages.articleLimit;
    case 'preprocessType':
      return settings.preprocessType ? undefined : messages.preprocessType;
    case 'concatenationType':
      return settings.concatenationType ? undefined : messages.concatenationType;
    case 'selectionOfRelevance':
      return settings.selectionOfRelevance.length > 0 ? undefined : messages.selectionOfRelevance;
    case 'threshold': {
      if (settings.threshold.trim() === '') return undefined;
      const threshold = Number(settings.threshold);
      return threshold >= 0 && threshold <= 1 ? undefined : messages.threshold;
    }
  }
}

export type StepAction = 'add-step' | 'expand-step' | 'collapse-step' | 'remove-step';
export const STEP_ACTIONS: StepAction[] = [
  'add-step',
  'expand-step',
  'collapse-step',
  'remove-step',
];

/**
 * A chain's steps after one of the form's step buttons: adding one keeps every step's fields and
 * opens only the new one; expanding opens one and closes the rest; removing keeps the others.
 */
export function changeSteps(
  values: RunValues,
  action: StepAction,
  index: number,
  maxSteps = MAX_STEPS,
): RunValues {
  const { steps } = values;
  switch (action) {
    case 'add-step':
      if (steps.length >= maxSteps) return values;
      return {
        ...values,
        steps: [...steps, { ...emptySettings(), expImplementationId: '' }],
        expanded: steps.length,
      };
    case 'expand-step':
      return { ...values, expanded: index >= 0 && index < steps.length ? index : -1 };
    case 'collapse-step':
      return { ...values, expanded: -1 };
    case 'remove-step':
      return {
        ...values,
        steps: steps.filter((_, at) => at !== index),
        expanded:
          values.expanded === index
            ? -1
            : values.expanded > index
              ? values.expanded - 1
              : values.expanded,
      };
  }
}
