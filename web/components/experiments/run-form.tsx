// The add / edit run form (in a 600 px modal): name, comments, dataset, and the implementation's
// settings, or for a chain its steps. Messages appear on blur and from the server's check, in the
// spec's words; what was typed stays when the server refuses it.
import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import type { RunValues } from '#web/lib/experiment-form';
import type { FormOptions, ImplementationView } from '#web/lib/experiment-views';
import { ChainSteps } from './chain-steps';
import { FieldMessage, fieldId, SettingFields, type FieldState } from './setting-fields';

export function RunForm({
  implementation,
  values: initial,
  options,
  errors = {},
  error,
  action,
}: {
  implementation: ImplementationView;
  values: RunValues;
  options: FormOptions;
  errors?: Record<string, string>;
  /** A refusal that is not about one field. */
  error?: string;
  action: string;
}) {
  const submitting = useNavigation().state === 'submitting';
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<string[]>([]);
  const state: FieldState = {
    messageFor: (name, client) => (touched.includes(name) ? client : errors[name]),
    touch: (name) => setTouched((seen) => (seen.includes(name) ? seen : [...seen, name])),
  };
  const { messages } = options;
  const nameMessage = state.messageFor('name', values.name.trim() ? undefined : messages.name);
  const datasetMessage = state.messageFor('dataset', values.dataset ? undefined : messages.dataset);
  const fieldKnown = Object.keys(errors).length > 0;
  const chain = implementation.kind === 'chain';
  const text = (name: 'name' | 'comments' | 'dataset') => ({
    id: fieldId(name),
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((now) => ({ ...now, [name]: event.target.value })),
    onBlur: () => state.touch(name),
  });
  return (
    <Form
      method="post"
      action={action}
      className="admin-form run-form"
      noValidate
      preventScrollReset
    >
      {/* The first submit button is what Enter in a field presses: Save, not a step's button. */}
      <button type="submit" name="intent" value="save" hidden tabIndex={-1} />
      {values.id && <input type="hidden" name="id" value={values.id} />}
      {values.revision !== undefined && (
        <input type="hidden" name="revision" value={values.revision} />
      )}
      {error && !fieldKnown && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      <label htmlFor={fieldId('name')}>Name</label>
      <input
        {...text('name')}
        maxLength={200}
        autoComplete="off"
        aria-invalid={nameMessage ? true : undefined}
        aria-describedby={nameMessage ? `${fieldId('name')}-error` : undefined}
      />
      <FieldMessage name="name" message={nameMessage} />
      <label htmlFor={fieldId('comments')}>Comments</label>
      <textarea
        {...text('comments')}
        rows={2}
        maxLength={2000}
        aria-invalid={errors.comments ? true : undefined}
        aria-describedby={errors.comments ? `${fieldId('comments')}-error` : undefined}
      />
      <FieldMessage name="comments" message={errors.comments} />
      <label htmlFor={fieldId('dataset')}>Dataset</label>
      <select
        {...text('dataset')}
        aria-invalid={datasetMessage ? true : undefined}
        aria-describedby={datasetMessage ? `${fieldId('dataset')}-error` : undefined}
      >
        <option value="">Select dataset</option>
        {options.datasets.map((dataset) => (
          <option key={dataset.id} value={dataset.id}>
            {dataset.name}
          </option>
        ))}
      </select>
      <FieldMessage name="dataset" message={datasetMessage} />
      {chain ? (
        <ChainSteps
          values={values}
          options={options}
          state={state}
          stepsMessage={errors.steps}
          onChange={setValues}
        />
      ) : (
        <SettingFields
          prefix=""
          fields={implementation.fields}
          settings={values.settings}
          choices={options}
          options={options}
          state={state}
          onChange={(settings) => setValues((now) => ({ ...now, settings }))}
        />
      )}
      <div className="admin-form__actions">
        <button type="submit" name="intent" value="save" className="button" disabled={submitting}>
          {values.id ? 'Save changes' : 'Add run'}
        </button>
      </div>
    </Form>
  );
}
