// The default and sp variants' entries and the transitions between their steps (spec §4). Each
// step is a history entry: moving on pushes one, and 'Back' or 'Add' return to the entry the step
// came from, so the browser's Back and the page's agree. What 'Back' undoes is done on arrival
// (`settle`), so the browser's Back undoes it too. Back to select pointer keeps what was typed
// (ADR 0051): Forward, or the same pointer chosen again, finds it as it was.
import { useState } from 'react';
import { post, type Entry, type Pointer, type Rank, type Starter, type Step } from './funnel';

let counter = 0;
const newId = () => `entry-${Date.now()}-${counter++}`;

export type Moves = {
  /** A step after this one: a new history entry. */
  go(step: Step): void;
  /** Back to an earlier step: to its history entry when it is there, else in place of this one. */
  returnTo(step: Step): void;
};

export function useEntries(
  variant: '' | 'sp' | 'ip',
  initial: { entries: Entry[]; currentId?: string },
  moves: Moves,
  fail: (message: string) => void,
) {
  const [entries, setEntries] = useState<Entry[]>(initial.entries);
  const [currentId, setCurrentId] = useState<string | undefined>(initial.currentId);
  const [evaluating, setEvaluating] = useState(false);
  const current = entries.find((entry) => entry.id === currentId);
  const change = (id: string, changes: Partial<Entry>) =>
    setEntries((all) => all.map((entry) => (entry.id === id ? { ...entry, ...changes } : entry)));

  function draft(starter: Starter, pointer?: Pointer) {
    const entry: Entry = {
      id: newId(),
      name: '',
      starter,
      pointer,
      rank: 'NOT_RANKED',
      suggestions: [],
      finalized: false,
      isEditMode: false,
    };
    setEntries((all) => [...all, entry]);
    setCurrentId(entry.id);
    return entry;
  }

  return {
    entries,
    current,
    currentId,
    evaluating,
    /**
     * The state a step starts from, however it was reached. The list: an entry being edited is
     * restored as it was and a new one not added is dropped ('Back' in select pointer and in add
     * descriptor). Select pointer changes nothing: the pointer chosen next decides (choosePointer).
     */
    settle(step: Step) {
      if (step === 'starters') {
        setEntries((all) =>
          all.flatMap((entry) => {
            if (entry.finalized) return [entry];
            if (entry.isEditMode && entry.before) {
              return [{ ...entry.before, finalized: true, isEditMode: false, before: undefined }];
            }
            return [];
          }),
        );
        setCurrentId(undefined);
      }
    },
    /** Default variant: a skip-to-clue starter goes straight to the descriptor. */
    chooseStarter(starter: Starter) {
      draft(starter, starter.skipToClue ? starter.pointers[0] : undefined);
      moves.go(starter.skipToClue ? 'descriptor' : 'pointer');
    },
    /**
     * The pointer chosen before (Back, then the same one again): the descriptor as it was, with its
     * score. Another one: the words typed stay, their score goes (it was for another clue).
     */
    choosePointer(pointer: Pointer) {
      if (current && (!current.pointer || current.pointer.name !== pointer.name)) {
        change(current.id, {
          pointer,
          rank: 'NOT_RANKED',
          score: undefined,
          suggestions: [],
          submitted: undefined,
        });
      }
      moves.go('descriptor');
    },
    /** sp variant: starter and pointer from one screen. */
    chooseBoth(starter: Starter, pointer: Pointer) {
      draft(starter, pointer);
      moves.go('descriptor');
    },
    /** 'Back' in select pointer: the list drops the draft entry on arrival. */
    backFromPointer() {
      moves.returnTo('starters');
    },
    rename(name: string) {
      if (current) change(current.id, { name });
    },
    async evaluate() {
      if (!current) return;
      const { id, name, starter, pointer } = current;
      setEvaluating(true);
      try {
        const answer = await post<{ score: string; rank: Rank; suggestions: string[] }>(
          '/api/audience-name-assessment',
          { prefix: starter.name, pointer: pointer?.name, clue: name },
        );
        change(id, {
          submitted: name,
          score: answer.score,
          rank: answer.rank,
          suggestions: answer.suggestions,
        });
      } catch (error) {
        console.warn('Evaluation failed', error);
        fail((error as Error).message);
      } finally {
        setEvaluating(false);
      }
    },
    add() {
      // Finalized: already on its way to the list (a second click must not go back twice).
      if (!current || current.finalized) return;
      change(current.id, { finalized: true, isEditMode: false, before: undefined });
      moves.returnTo('starters');
    },
    /**
     * 'Back' in add descriptor: an edit returns to the list (restored there); a pointer chosen in
     * the default variant returns to select pointer (the entry kept); else to the list (dropped).
     */
    backFromDescriptor() {
      if (!current || current.finalized) return;
      const toPointer =
        !current.isEditMode && variant === '' && current.pointer && !current.starter.skipToClue;
      moves.returnTo(toPointer ? 'pointer' : 'starters');
    },
    edit(entry: Entry) {
      change(entry.id, { finalized: false, isEditMode: true, before: entry });
      setCurrentId(entry.id);
      moves.go('descriptor');
    },
    remove: (entry: Entry) => setEntries((all) => all.filter((item) => item.id !== entry.id)),
  };
}
