// The get-started funnel's client state (spec §3-§4): entries the reader builds from a starter, a
// pointer and a descriptor, the score ranks, the texts that depend on them, the step the URL may
// show, the entries as the server keeps them in the draft, and the JSON calls.
import type { DraftState } from '#core/users';
export type Pointer = { name?: string; ordering: number; examples: string[] };
export type Starter = {
  id: string;
  name: string;
  ordering: number;
  pointers: Pointer[];
  skipToClue: boolean;
};
export type Rank = 'NOT_RANKED' | 'VERY_LOW' | 'LOW' | 'OK' | 'HIGH' | 'VERY_HIGH';
export const RANK_LEVEL: Record<Rank, number> = {
  NOT_RANKED: 0,
  VERY_LOW: 1,
  LOW: 2,
  OK: 3,
  HIGH: 4,
  VERY_HIGH: 5,
};

/** An audience entry (spec §3): the descriptor typed after a starter and maybe a pointer. */
export type Entry = {
  id: string;
  name: string;
  starter: Starter;
  pointer?: Pointer;
  score?: string;
  rank: Rank;
  suggestions: string[];
  finalized: boolean;
  isEditMode: boolean;
  /** The name last sent to 'Evaluate': the score belongs to it. */
  submitted?: string;
  /** The finalized entry an edit started from, restored by 'Back'. */
  before?: Entry;
};

export type Step =
  | 'verification'
  | 'welcome'
  | 'starters'
  | 'pointer'
  | 'descriptor'
  | 'chat'
  | 'clues'
  | 'review'
  | 'completed';

/** Steps with a URL of their own (`?step=`); Welcome and verification are the page without one. */
export const URL_STEPS: readonly Step[] = [
  'starters',
  'pointer',
  'descriptor',
  'chat',
  'clues',
  'review',
  'completed',
];

export type Variant = '' | 'sp' | 'ip';

/** What decides which steps the reader may be at. */
export type Progress = {
  variant: Variant;
  /** The link names an invited reader (Welcome), else the page verifies an address. */
  invited: boolean;
  /** The reader passed Welcome's 'Start' (now or earlier): the steps after it are open. */
  verified: boolean;
  done: boolean;
  current?: Entry;
  clues: string[];
  /** The ip variant's interview answered with clues ('So those are your clues'). */
  reviewed: boolean;
};

/**
 * The step the page shows for the URL's `step`: the one asked for when the reader's progress
 * allows it, else the first step of their variant (or Welcome before 'Start'). The server's render
 * and the browser's agree, since both read the same URL and draft.
 */
export function resolveStep(requested: string | null, at: Progress): Step {
  if (at.done) return 'completed';
  if (!at.verified || requested === null) return at.invited ? 'welcome' : 'verification';
  const first: Step = at.variant === 'ip' ? 'chat' : 'starters';
  // An entry just added is still current until the list is reached: the step stays as the URL
  // says until the move lands, so nothing is clicked on a screen whose URL is not there yet.
  const current = at.variant === 'ip' ? undefined : at.current;
  switch (requested) {
    case 'pointer':
      return current && !current.finalized && at.variant === '' && !current.starter.skipToClue
        ? 'pointer'
        : first;
    case 'descriptor':
      return current ? 'descriptor' : first;
    case 'clues':
      return at.variant === 'ip' && at.reviewed ? 'clues' : first;
    case 'review':
      return at.clues.length >= (at.variant === 'ip' ? 1 : 2) ? 'review' : first;
    default:
      return first;
  }
}

export type StoredEntry = DraftState['entries'][number];

/** An entry as the draft keeps it: its starter by id and its pointer by name. */
export function storedEntry(entry: Entry): StoredEntry {
  const fields = (of: Entry) => ({
    id: of.id,
    name: of.name,
    starterId: of.starter.id,
    pointer: of.pointer && { name: of.pointer.name },
    score: of.score,
    rank: of.rank,
    suggestions: of.suggestions,
    finalized: of.finalized,
    isEditMode: of.isEditMode,
    submitted: of.submitted,
  });
  return { ...fields(entry), before: entry.before && fields(entry.before) };
}

/**
 * The draft's entries with their starters and pointers again (one whose starter is gone is
 * dropped), and the one being built: not one saved on its way to the list.
 */
export function restoredEntries(
  draft: Pick<DraftState, 'entries' | 'currentId'> | undefined,
  starters: Starter[],
): { entries: Entry[]; currentId?: string } {
  const restore = (item: Omit<StoredEntry, 'before'>): Entry | undefined => {
    const starter = starters.find((candidate) => candidate.id === item.starterId);
    if (!starter) return undefined;
    const pointer = item.pointer && {
      ordering: 0,
      examples: [],
      ...starter.pointers.find((candidate) => candidate.name === item.pointer!.name),
      name: item.pointer.name,
    };
    return { ...item, starter, pointer, before: undefined };
  };
  const entries = (draft?.entries ?? []).flatMap((item) => {
    const entry = restore(item);
    return entry ? [{ ...entry, before: item.before && restore(item.before) }] : [];
  });
  const current = entries.find((entry) => entry.id === draft?.currentId && !entry.finalized);
  return { entries, currentId: current?.id };
}

export const ADD_YOUR_OWN = 'Add your own';

/** The entry's clue: starter, pointer name and descriptor joined by spaces (core's combinedClue). */
export function entryClue(entry: Pick<Entry, 'starter' | 'pointer' | 'name'>): string {
  return [entry.starter.name, entry.pointer?.name ?? '', entry.name]
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');
}

export function hintFor(finalized: number): string {
  if (finalized === 0) return 'Start by selecting one of the following';
  if (finalized === 1) return 'You need to select one more';
  return 'You can add more';
}

/** The descriptor field's placeholder by the entry's index (spec §4). */
export function placeholderFor(index: number): string {
  return (
    [
      'Type here...',
      'You can always add more...',
      "Actually, there's no limit...",
      'Yes, no limit indeed...',
    ][Math.min(index, 3)] ?? 'Type here...'
  );
}

export const FEEDBACK = {
  evaluating: 'Evaluating your descriptor...',
  examples: 'For example:',
  VERY_LOW:
    'This descriptor is too broad and will not help us with finding relevant information for you. Please try typing something more specific.',
  moreSpecific: 'Good start! Can you make it more specific? For example:',
  /** The same prompt when there is no example to show: never 'For example:' with nothing after. */
  moreSpecificWithoutExamples: 'Good start! Can you make it more specific?',
  HIGH: 'Great job! This description really helps us with picking stories for you',
  VERY_HIGH: 'Amazing descriptor! Sit tight any super-relevant stories are coming your way!',
} as const;

export const canEvaluate = (entry: Entry) =>
  entry.name.trim() !== '' && !entry.finalized && entry.name !== entry.submitted;

/** 'Add' only after the same name was evaluated above very low (spec §4). */
export const canAdd = (entry: Entry) =>
  !entry.finalized &&
  entry.submitted === entry.name &&
  entry.rank !== 'NOT_RANKED' &&
  entry.rank !== 'VERY_LOW';

/** POSTs JSON; a refusal becomes an Error with the server's message. */
export async function post<T>(path: string, body: object): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = (await response.json().catch(() => ({}))) as {
    error?: { message?: string };
  };
  if (!response.ok) {
    throw new Error(data.error?.message ?? 'Something went wrong. Please try again.');
  }
  return data as T;
}
