// What the Experiments screen receives from its loader: the catalogue's parts it shows and the
// choices its forms offer (the browser never imports core's values, only these views).
import type { Field, Kind } from '#core/experiments';
import type { RunLimits, RunMessages } from './experiment-form';

/** A process, implementation or the like; `words` explains an internal name to the operator. */
export type Choice = { id: string; name: string; words?: string };

export type ImplementationView = Choice & {
  kind: Kind;
  fields: Field[];
  managesPrompts: boolean;
  info: { name: string; description: string; required: boolean }[];
};

/** The choices one implementation's settings offer: its models and prompts. */
export type SettingChoices = {
  models: Choice[];
  /** Models of the right type that cannot run here, each with why. */
  notOffered: string[];
  prompts: Choice[];
  /** What the threshold does for this implementation, when it has one. */
  thresholdWords?: string;
};

/** A chain step's implementation, with its own choices. */
export type StepChoice = Choice & { fields: Field[] } & SettingChoices;

export type FormOptions = SettingChoices & {
  datasets: Choice[];
  steps: StepChoice[];
  preprocessTypes: readonly string[];
  concatenationTypes: readonly string[];
  relevance: readonly string[];
  messages: RunMessages;
  limits: RunLimits;
};

export type RunRow = {
  id: string;
  name: string;
  status?: string;
  executedAt?: string;
  canExecute: boolean;
};

export type PromptRow = { id: string; title: string; prompt: string; createdAt: string };
