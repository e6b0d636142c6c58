// The process and implementation choosers: a text box that filters its list (a native datalist,
// announced as a combobox) and a Clear link each. A choice opens at once with JavaScript, or with
// 'Show' without it; changing the process clears the implementation (the server sees which
// process the form was showing). Until both are chosen, the choices are also listed as links, each
// saying what it is, so nothing needs typing.
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

/** The choices still to make, as links with what each is: the processes, then its implementations. */
export function ChoiceList({
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
  if (implementation) {
    return implementation.words ? <p className="choice-words">{implementation.words}</p> : null;
  }
  const [heading, choices, href] = process
    ? ([
        `Implementations of ${process.name}`,
        implementations,
        (id: string) => experimentsHref({ process: process.id, implementation: id }),
      ] as const)
    : (['Processes', processes, (id: string) => experimentsHref({ process: id })] as const);
  return (
    <section className="choice-list" aria-labelledby="choice-list-heading">
      {process?.words && <p className="choice-words">{process.words}</p>}
      <h2 id="choice-list-heading">{heading}</h2>
      <ul>
        {choices.map((choice) => (
          <li key={choice.id}>
            <Link to={href(choice.id)} preventScrollReset>
              {choice.name}
            </Link>
            {choice.words && <p>{choice.words}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
