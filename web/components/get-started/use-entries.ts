// The default and sp variants' entries and the transitions between their steps (spec §4).
import { useState } from 'react';
import { post, type Entry, type Pointer, type Rank, type Starter, type Step } from './funnel';

let counter = 0;
const newId = () => `entry-${Date.now()}-${counter++}`;

export function useEntries(
  variant: '' | 'sp' | 'ip',
  go: (step: Step) => void,
  fail: (message: string) => void,
) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [currentId, setCurrentId] = useState<string>();
  const [evaluating, setEvaluating] = useState(false);
  const current = entries.find((entry) => entry.id === currentId);
  const change = (id: string, changes: Partial<Entry>) =>
    setEntries((all) => all.map((entry) => (entry.id === id ? { ...entry, ...changes } : entry)));
  const remove = (id: string) => setEntries((all) => all.filter((entry) => entry.id !== id));

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
    evaluating,
    /** Default variant: a skip-to-clue starter goes straight to the descriptor. */
    chooseStarter(starter: Starter) {
      draft(starter, starter.skipToClue ? starter.pointers[0] : undefined);
      go(starter.skipToClue ? 'descriptor' : 'pointer');
    },
    choosePointer(pointer: Pointer) {
      if (current) change(current.id, { pointer });
      go('descriptor');
    },
    /** sp variant: starter and pointer from one screen. */
    chooseBoth(starter: Starter, pointer: Pointer) {
      draft(starter, pointer);
      go('descriptor');
    },
    /** 'Back' in select pointer removes the draft entry. */
    backFromPointer() {
      if (current) remove(current.id);
      go('starters');
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
      if (!current) return;
      change(current.id, { finalized: true, isEditMode: false, before: undefined });
      go('starters');
    },
    backFromDescriptor() {
      if (!current) return;
      if (current.isEditMode && current.before) {
        change(current.id, { ...current.before, finalized: true, isEditMode: false });
        go('starters');
      } else if (variant === '' && current.pointer && !current.starter.skipToClue) {
        change(current.id, {
          pointer: undefined,
          name: '',
          rank: 'NOT_RANKED',
          score: undefined,
          submitted: undefined,
        });
        go('pointer');
      } else {
        remove(current.id);
        go('starters');
      }
    },
    edit(entry: Entry) {
      change(entry.id, { finalized: false, isEditMode: true, before: entry });
      setCurrentId(entry.id);
      go('descriptor');
    },
    remove: (entry: Entry) => remove(entry.id),
  };
}
