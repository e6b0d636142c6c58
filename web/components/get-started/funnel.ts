// The get-started funnel's client state (spec §3-§4): entries the reader builds from a starter, a
// pointer and a descriptor, the score ranks, the texts that depend on them, and the JSON calls.
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
  HIGH: 'Great job! This description really helps us with picking stories for you',
  VERY_HIGH: 'Amazing descriptor! Sit tight any super-relevant stories are coming your way!',
} as const;

export const canEvaluate = (entry: Entry) =>
  entry.name.trim() !== '' && !entry.finalized && entry.name !== entry.submitted;

/** 'Add' only after the same name was evaluated above very low (spec §4). */
export const canAdd = (entry: Entry) =>
  entry.submitted === entry.name && entry.rank !== 'NOT_RANKED' && entry.rank !== 'VERY_LOW';

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
