// Select sentence starter (default variant), the sp variant's one screen of starters and their
// pointers, and select pointer (default variant), with the finalized entries and their actions.
import { ADD_YOUR_OWN, entryClue, hintFor, type Entry, type Pointer, type Starter } from './funnel';
import { StepHeading } from './step-heading';

type ListProps = {
  variant: '' | 'sp';
  starters: Starter[];
  entries: Entry[];
  focus: boolean;
  onStarter(starter: Starter): void;
  onPointer(starter: Starter, pointer: Pointer): void;
  onEdit(entry: Entry): void;
  onDelete(entry: Entry): void;
  onComplete(): void;
};

export function StarterStep(props: ListProps) {
  const finalized = props.entries.filter((entry) => entry.finalized);
  return (
    <section>
      <StepHeading focus={props.focus}>Tell us a few things about you</StepHeading>
      {finalized.length > 0 && (
        <ul className="funnel__entries" aria-label="Your clues">
          {finalized.map((entry) => {
            const clue = entryClue(entry);
            return (
              <li key={entry.id}>
                <span>{clue}</span>
                <div className="funnel__row-actions">
                  <button
                    type="button"
                    className="funnel__action"
                    aria-label={`Edit ${clue}`}
                    onClick={() => props.onEdit(entry)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="funnel__action"
                    aria-label={`Delete ${clue}`}
                    onClick={() => props.onDelete(entry)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <p className="funnel__hint">{hintFor(finalized.length)}</p>
      {props.variant === 'sp' ? (
        props.starters.map((starter) => (
          <fieldset key={starter.id} className="funnel__group">
            <legend>{starter.name}...</legend>
            <Choices
              items={starter.pointers.length ? starter.pointers : [{ ordering: 0, examples: [] }]}
              label={(pointer) => `${starter.name} ${pointer.name ?? ADD_YOUR_OWN}`}
              onPick={(pointer) => props.onPointer(starter, pointer)}
            />
          </fieldset>
        ))
      ) : (
        <ul className="cloud" aria-label="Sentence starters">
          {props.starters.map((starter) => (
            <li key={starter.id}>
              <button
                type="button"
                className="cloud__item"
                onClick={() => props.onStarter(starter)}
              >
                {starter.name}...
              </button>
            </li>
          ))}
        </ul>
      )}
      {finalized.length >= 2 && (
        <div className="actions">
          <button type="button" className="button button--large" onClick={props.onComplete}>
            Complete your profile
          </button>
        </div>
      )}
    </section>
  );
}

/** Pointer buttons; the accessible name says the whole phrase ('I build Add your own'). */
function Choices(props: {
  items: Pointer[];
  label(pointer: Pointer): string;
  onPick(pointer: Pointer): void;
}) {
  return (
    <ul className="cloud">
      {props.items.map((pointer) => (
        <li key={pointer.name ?? ADD_YOUR_OWN}>
          <button
            type="button"
            className="cloud__item"
            aria-label={props.label(pointer)}
            onClick={() => props.onPick(pointer)}
          >
            {pointer.name ?? ADD_YOUR_OWN}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function PointerStep(props: {
  starter: Starter;
  focus: boolean;
  onPointer(pointer: Pointer): void;
  onBack(): void;
}) {
  return (
    <section>
      <StepHeading focus={props.focus}>{props.starter.name}...</StepHeading>
      <p className="funnel__hint">Pick what follows</p>
      <Choices
        items={props.starter.pointers}
        label={(pointer) => `${props.starter.name} ${pointer.name ?? ADD_YOUR_OWN}`}
        onPick={props.onPointer}
      />
      <div className="actions">
        <button type="button" className="button button--ghost" onClick={props.onBack}>
          Back
        </button>
      </div>
    </section>
  );
}
