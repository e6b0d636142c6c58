// A run's settings as form fields, the ones its implementation asks for (a single run's, or one
// chain step's under `steps.{i}.`): model, prompt, number of picks, article limit, preprocess and
// concatenation type, threshold (0 to 1, step 0.001) and the relevance labels to select.
import { Fragment, type FocusEvent, type ReactNode } from 'react';
import type { Field } from '#core/experiments';
import { fieldMessage, INPUT_OF, type Settings } from '#web/lib/experiment-form';
import type { FormOptions, SettingChoices } from '#web/lib/experiment-views';

const LABELS: Record<Field, string> = {
  model: 'Model',
  prompt: 'Prompt',
  numOfPicks: 'Number of picks',
  articleLimit: 'Article limit',
  preprocessType: 'Preprocess type',
  concatenationType: 'Concatenation type',
  threshold: 'Threshold',
  selectionOfRelevance: 'Relevance selection',
};

export const fieldId = (name: string) => `run-${name.replace(/\./g, '-')}`;

export type FieldState = {
  /** The message shown under a field (its form name), or undefined. */
  messageFor: (name: string, client: string | undefined) => string | undefined;
  touch: (name: string) => void;
};

export function FieldMessage({ name, message }: { name: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={`${fieldId(name)}-error`} className="field__error">
      {message}
    </p>
  );
}

function Labelled({
  name,
  label,
  message,
  children,
}: {
  name: string;
  label: string;
  message?: string;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={fieldId(name)}>{label}</label>
      {children}
      <FieldMessage name={name} message={message} />
    </>
  );
}

export function SettingFields({
  prefix,
  fields,
  settings,
  choices,
  options,
  state,
  onChange,
}: {
  prefix: string;
  fields: Field[];
  settings: Settings;
  choices: SettingChoices;
  options: FormOptions;
  state: FieldState;
  onChange: (settings: Settings) => void;
}) {
  return (
    <>
      {fields.map((field) => {
        const key = INPUT_OF[field];
        const name = `${prefix}${key}`;
        const message = state.messageFor(
          name,
          fieldMessage(field, settings, options.messages, options.limits),
        );
        const common = {
          id: fieldId(name),
          name,
          'aria-invalid': message ? true : undefined,
          'aria-describedby': message ? `${fieldId(name)}-error` : undefined,
          onBlur: () => state.touch(name),
        } as const;
        const set = (value: string) => onChange({ ...settings, [key]: value });
        const select = (
          values: readonly (string | { id: string; name: string })[],
          none: string,
        ) => (
          <Labelled key={field} name={name} label={LABELS[field]} message={message}>
            <select
              {...common}
              value={settings[key] as string}
              onChange={(event) => set(event.target.value)}
            >
              <option value="">{none}</option>
              {values.map((value) =>
                typeof value === 'string' ? (
                  <option key={value}>{value}</option>
                ) : (
                  <option key={value.id} value={value.id}>
                    {value.name}
                  </option>
                ),
              )}
            </select>
          </Labelled>
        );
        switch (field) {
          case 'model':
            return (
              <Fragment key={field}>
                {select(choices.models, 'Select model')}
                {choices.notOffered.length > 0 && (
                  <p className="field__hint">
                    Not offered, because they cannot run here: {choices.notOffered.join('; ')}
                  </p>
                )}
              </Fragment>
            );
          case 'prompt':
            return select(choices.prompts, 'Select prompt');
          case 'preprocessType':
            return select(options.preprocessTypes, 'Select preprocess type');
          case 'concatenationType':
            return select(options.concatenationTypes, 'Select concatenation type');
          case 'numOfPicks':
          case 'articleLimit':
            return (
              <Labelled key={field} name={name} label={LABELS[field]} message={message}>
                <input
                  {...common}
                  type="number"
                  min={1}
                  max={options.limits[field]}
                  step={1}
                  inputMode="numeric"
                  value={settings[key] as string}
                  onChange={(event) => set(event.target.value)}
                />
              </Labelled>
            );
          case 'threshold':
            return (
              <Labelled key={field} name={name} label={LABELS[field]} message={message}>
                <input
                  {...common}
                  type="number"
                  min={0}
                  max={1}
                  step={0.001}
                  inputMode="decimal"
                  aria-describedby={message ? `${fieldId(name)}-error` : `${fieldId(name)}-hint`}
                  value={settings.threshold}
                  onChange={(event) => set(event.target.value)}
                />
                {!message && (
                  <p id={`${fieldId(name)}-hint`} className="field__hint">
                    {choices.thresholdWords && <>{choices.thresholdWords} </>}
                    {options.messages.threshold}
                  </p>
                )}
              </Labelled>
            );
          case 'selectionOfRelevance':
            return (
              <Relevance
                key={field}
                name={name}
                chosen={settings.selectionOfRelevance}
                labels={options.relevance}
                message={message}
                onBlur={() => state.touch(name)}
                onChange={(chosen) => onChange({ ...settings, selectionOfRelevance: chosen })}
              />
            );
        }
      })}
    </>
  );
}

function Relevance({
  name,
  chosen,
  labels,
  message,
  onBlur,
  onChange,
}: {
  name: string;
  chosen: string[];
  labels: readonly string[];
  message?: string;
  onBlur: () => void;
  onChange: (chosen: string[]) => void;
}) {
  /** Leaving the group, not moving between its boxes, is its blur. */
  function leave(event: FocusEvent<HTMLFieldSetElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onBlur();
  }
  return (
    <fieldset
      className="admin-form__choices"
      aria-describedby={message ? `${fieldId(name)}-error` : undefined}
      onBlur={leave}
    >
      <legend>{LABELS.selectionOfRelevance}</legend>
      {labels.map((label) => (
        <label key={label} className="checkbox">
          <input
            type="checkbox"
            name={name}
            value={label}
            checked={chosen.includes(label)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? [...chosen, label]
                  : chosen.filter((candidate) => candidate !== label),
              )
            }
          />{' '}
          {label}
        </label>
      ))}
      <FieldMessage name={name} message={message} />
    </fieldset>
  );
}
