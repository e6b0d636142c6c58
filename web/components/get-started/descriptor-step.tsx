// Add descriptor (spec §4): the free text after the starter and pointer, 'Evaluate' (Enter too),
// the score bar with its feedback, and 'Back' / 'Add'.
import { useId } from 'react';
import {
  canAdd,
  canEvaluate,
  entryClue,
  FEEDBACK,
  placeholderFor,
  RANK_LEVEL,
  type Entry,
} from './funnel';
import { StepHeading } from './step-heading';

type Props = {
  entry: Entry;
  index: number;
  evaluating: boolean;
  focus: boolean;
  onChange(name: string): void;
  onEvaluate(): void;
  onBack(): void;
  onAdd(): void;
};

export function DescriptorStep({ entry, index, evaluating, focus, ...on }: Props) {
  const fieldId = useId();
  const prefix = entryClue({ ...entry, name: '' });
  const evaluated = entry.submitted !== undefined && entry.submitted === entry.name;
  return (
    <section>
      <StepHeading focus={focus}>Tell us a few things about you</StepHeading>
      <form
        className="funnel__descriptor"
        onSubmit={(event) => {
          event.preventDefault();
          if (canEvaluate(entry) && !evaluating) on.onEvaluate();
        }}
      >
        <label htmlFor={fieldId} className="funnel__prefix">
          {prefix}...
        </label>
        <div className="funnel__field">
          <textarea
            id={fieldId}
            name="descriptor"
            value={entry.name}
            placeholder={placeholderFor(index)}
            required
            maxLength={300}
            rows={Math.min(6, Math.max(2, Math.ceil(entry.name.length / 50)))}
            readOnly={evaluating}
            aria-busy={evaluating}
            onChange={(event) => on.onChange(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
          />
          {evaluating && <span className="spinner" aria-hidden="true" />}
        </div>
        {canEvaluate(entry) && (
          <button type="submit" className="button" disabled={evaluating}>
            Evaluate
          </button>
        )}
      </form>
      <div role="status" aria-live="polite" className="funnel__feedback">
        {evaluating ? (
          <p>{FEEDBACK.evaluating}</p>
        ) : evaluated ? (
          <Feedback entry={entry} onPick={on.onChange} />
        ) : (
          <Examples examples={entry.pointer?.examples ?? []} onPick={on.onChange} />
        )}
      </div>
      <div className="actions">
        <button type="button" className="button button--ghost" onClick={on.onBack}>
          Back
        </button>
        {canAdd(entry) && !evaluating && (
          <button type="button" className="button" onClick={on.onAdd}>
            Add
          </button>
        )}
      </div>
    </section>
  );
}

function Feedback({ entry, onPick }: { entry: Entry; onPick(name: string): void }) {
  const level = RANK_LEVEL[entry.rank];
  return (
    <>
      <p className="funnel__score">
        <label>
          Score: <strong>{entry.score}</strong>{' '}
          <meter min={0} max={5} low={2} high={4} optimum={5} value={level} />
        </label>
      </p>
      {entry.rank === 'VERY_LOW' && <p>{FEEDBACK.VERY_LOW}</p>}
      {(entry.rank === 'LOW' || entry.rank === 'OK') &&
        (entry.suggestions.length > 0 ? (
          <Suggestions title={FEEDBACK.moreSpecific} items={entry.suggestions} onPick={onPick} />
        ) : (
          <p>{FEEDBACK.moreSpecificWithoutExamples}</p>
        ))}
      {entry.rank === 'HIGH' && <p>{FEEDBACK.HIGH}</p>}
      {entry.rank === 'VERY_HIGH' && <p>{FEEDBACK.VERY_HIGH}</p>}
    </>
  );
}

function Examples({ examples, onPick }: { examples: string[]; onPick(name: string): void }) {
  if (examples.length === 0) return null;
  return <Suggestions title={FEEDBACK.examples} items={examples} onPick={onPick} />;
}

/** A lead ending in 'For example:' and the items after it; callers give at least one item. */
function Suggestions(props: { title: string; items: string[]; onPick(name: string): void }) {
  const id = useId();
  return (
    <>
      <p id={id}>{props.title}</p>
      <ul aria-labelledby={id} className="cloud">
        {props.items.map((item) => (
          <li key={item}>
            <button type="button" className="cloud__item" onClick={() => props.onPick(item)}>
              {item}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
