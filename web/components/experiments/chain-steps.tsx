// A chaining run's steps: each collapsed or expanded, one expanded at a time. 'Add step' keeps
// every step's fields and opens the new one; a step can be edited, collapsed or removed. The
// buttons are submit buttons the server answers with the changed form, so all of it works
// without JavaScript; with JavaScript the same change happens in the page.
import type { MouseEvent } from 'react';
import { useHydrated } from '#web/lib/hydrated';
import {
  changeSteps,
  emptySettings,
  type RunValues,
  type Settings,
  type StepAction,
  type StepValues,
} from '#web/lib/experiment-form';
import type { FormOptions, StepChoice } from '#web/lib/experiment-views';
import { FieldMessage, fieldId, SettingFields, type FieldState } from './setting-fields';

const TEXT_KEYS = [
  'expImplementationId',
  'expGptModelId',
  'expPromptId',
  'numOfPicks',
  'articleLimit',
  'preprocessType',
  'concatenationType',
  'threshold',
] as const;

/** A collapsed step's values, carried along unseen. */
function CarriedStep({ index, step }: { index: number; step: StepValues }) {
  return (
    <>
      {TEXT_KEYS.map((key) => (
        <input key={key} type="hidden" name={`steps.${index}.${key}`} value={step[key]} />
      ))}
      {step.selectionOfRelevance.map((label) => (
        <input
          key={label}
          type="hidden"
          name={`steps.${index}.selectionOfRelevance`}
          value={label}
        />
      ))}
    </>
  );
}

export function ChainSteps({
  values,
  options,
  state,
  stepsMessage,
  onChange,
}: {
  values: RunValues;
  options: FormOptions;
  state: FieldState;
  stepsMessage?: string;
  onChange: (values: RunValues) => void;
}) {
  const hydrated = useHydrated();
  const choiceOf = (id: string): StepChoice | undefined =>
    options.steps.find((step) => step.id === id);
  /** With JavaScript the step buttons change the form in place. */
  const act = (action: StepAction, index: number) => (event: MouseEvent) => {
    event.preventDefault();
    onChange(changeSteps(values, action, index, options.limits.steps));
  };
  const button = (action: StepAction, index: number, label: string, name?: string) => (
    <button
      type="submit"
      name="intent"
      value={`${action}:${index}`}
      className="link-button"
      aria-label={name ? `${label} ${name}` : undefined}
      onClick={hydrated ? act(action, index) : undefined}
    >
      {label}
    </button>
  );
  const setStep = (index: number, step: StepValues) =>
    onChange({ ...values, steps: values.steps.map((old, at) => (at === index ? step : old)) });

  return (
    <fieldset
      className="chain-steps"
      aria-describedby={stepsMessage ? `${fieldId('steps')}-error` : undefined}
    >
      <legend>Steps</legend>
      <input type="hidden" name="stepCount" value={values.steps.length} />
      <input type="hidden" name="expanded" value={values.expanded} />
      {values.steps.length === 0 && <p>No steps yet.</p>}
      <ol className="chain-steps__list">
        {values.steps.map((step, index) => {
          const choice = choiceOf(step.expImplementationId);
          const title = `Step ${index + 1}`;
          const expanded = values.expanded === index;
          return (
            <li key={index} className="chain-step">
              <div className="chain-step__head">
                <strong>
                  {title}: {choice?.name ?? 'No implementation yet'}
                </strong>
                {expanded
                  ? button('collapse-step', index, 'Collapse', title)
                  : button('expand-step', index, 'Edit', title)}
                {button('remove-step', index, 'Remove', title)}
              </div>
              {expanded ? (
                <StepFields
                  index={index}
                  step={step}
                  choice={choice}
                  options={options}
                  state={state}
                  hydrated={hydrated}
                  onChange={(changed) => setStep(index, changed)}
                />
              ) : (
                <CarriedStep index={index} step={step} />
              )}
            </li>
          );
        })}
      </ol>
      {values.steps.length < options.limits.steps &&
        button('add-step', values.steps.length, 'Add step')}
      <FieldMessage name="steps" message={stepsMessage} />
    </fieldset>
  );
}

function StepFields({
  index,
  step,
  choice,
  options,
  state,
  hydrated,
  onChange,
}: {
  index: number;
  step: StepValues;
  choice?: StepChoice;
  options: FormOptions;
  state: FieldState;
  hydrated: boolean;
  onChange: (step: StepValues) => void;
}) {
  const name = `steps.${index}.expImplementationId`;
  const message = state.messageFor(name, undefined);
  return (
    <div className="chain-step__fields">
      <label htmlFor={fieldId(name)}>Step implementation</label>
      <select
        id={fieldId(name)}
        name={name}
        value={step.expImplementationId}
        aria-invalid={message ? true : undefined}
        onChange={(event) =>
          // Another implementation asks for other settings: start them afresh.
          onChange({ ...emptySettings(), expImplementationId: event.target.value })
        }
      >
        <option value="">Select implementation</option>
        {options.steps.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
          </option>
        ))}
      </select>
      <FieldMessage name={name} message={message} />
      {!hydrated && (
        <button type="submit" name="intent" value={`expand-step:${index}`} className="link-button">
          Show this implementation&apos;s settings
        </button>
      )}
      {choice && (
        <SettingFields
          prefix={`steps.${index}.`}
          fields={choice.fields}
          settings={step}
          choices={choice}
          options={options}
          state={state}
          onChange={(settings: Settings) => onChange({ ...step, ...settings })}
        />
      )}
    </div>
  );
}
