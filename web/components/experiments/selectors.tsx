// The process and implementation choosers: a text box that filters its list (a native datalist,
// announced as a combobox) and a Clear link each. A choice opens at once with JavaScript, or with
// 'Show' without it; changing the process clears the implementation (the server sees which
// process the form was showing).
import { Form, Link, useSubmit } from '@remix-run/react';
import type { FormEvent } from 'react';
import { experimentsHref, type ScreenState } from '#web/lib/experiment-paths';
import type { Choice } from '#web/lib/experiment-views';

function Chooser({
  id,
  label,
  name,
  choices,
  chosen,
  clearTo,
}: {
  id: string;
  label: string;
  name: string;
  choices: Choice[];
  chosen?: Choice;
  clearTo: string;
}) {
  return (
    <div className="chooser">
      <label htmlFor={id}>{label}</label>
      <div className="chooser__row">
        <input
          id={id}
          name={name}
          list={`${id}-choices`}
          defaultValue={chosen?.name ?? ''}
          key={chosen?.id ?? 'none'}
          autoComplete="off"
          placeholder="Type to filter"
        />
        <datalist id={`${id}-choices`}>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.name} />
          ))}
        </datalist>
        {chosen && (
          <Link to={clearTo} aria-label={`Clear ${label.toLowerCase()}`}>
            Clear
          </Link>
        )}
      </div>
    </div>
  );
}

export function Selectors({
  processes,
  implementations,
  process,
  implementation,
}: {
  processes: Choice[];
  implementations: Choice[];
  process?: Choice;
  implementation?: Choice;
}) {
  const submit = useSubmit();
  const state: ScreenState = { process: process?.id };
  /** With JavaScript a choice from the list opens at once. */
  function onInput(event: FormEvent<HTMLFormElement>) {
    const input = event.target as HTMLInputElement;
    const list = input.name === 'process' ? processes : implementations;
    if (list.some((choice) => choice.name === input.value)) {
      submit(event.currentTarget, { preventScrollReset: true });
    }
  }
  return (
    <Form method="get" className="experiment-choosers" onInput={onInput} preventScrollReset>
      <input type="hidden" name="shownProcess" value={process?.id ?? ''} />
      <Chooser
        id="experiment-process"
        label="Process"
        name="process"
        choices={processes}
        chosen={process}
        clearTo={experimentsHref({})}
      />
      {process && (
        <Chooser
          id="experiment-implementation"
          label="Implementation"
          name="implementation"
          choices={implementations}
          chosen={implementation}
          clearTo={experimentsHref(state)}
        />
      )}
      <button type="submit" className="button">
        Show
      </button>
    </Form>
  );
}
