// The funnel's rules about starters and pointers, pure so the browser can use them too (spec §3,
// §4 and §9): which starters skip the pointer step, how pointers are ordered, and how an entry's
// starter, pointer and descriptor make one clue.

export type Pointer = {
  /** Unset on the pointer that carries the examples of the 'Add your own' option. */
  name?: string;
  ordering: number;
  examples: string[];
};

/** The label the funnel shows for the unnamed pointer. */
export const ADD_YOUR_OWN = 'Add your own';

/**
 * A starter skips straight to the descriptor (skip-to-clue) when it has no pointers, or only the
 * unnamed 'Add your own' one: there is nothing to choose.
 */
export function skipsToClue(starter: { pointers?: readonly Pick<Pointer, 'name'>[] }): boolean {
  const pointers = starter.pointers ?? [];
  return pointers.length === 0 || (pointers.length === 1 && !pointers[0]!.name?.trim());
}

/**
 * Pointers by their ordering field, the unnamed 'Add your own' one always last (spec §9). A
 * starter with named pointers always offers 'Add your own', with no examples if none are stored;
 * a second unnamed pointer is dropped (only one option can carry the examples).
 */
export function orderPointers(pointers: readonly Pointer[]): Pointer[] {
  const byOrdering = [...pointers].sort((a, b) => a.ordering - b.ordering);
  const named = byOrdering.filter((pointer) => pointer.name?.trim());
  if (named.length === 0) return byOrdering.slice(0, 1);
  const own = byOrdering.find((pointer) => !pointer.name?.trim());
  const last = named[named.length - 1]!.ordering;
  return [
    ...named,
    { ordering: own?.ordering ?? last + 1, examples: own?.examples ?? [], name: undefined },
  ].map(({ name, ordering, examples }) =>
    name === undefined ? { ordering, examples } : { name, ordering, examples },
  );
}

/** The clue an entry stands for: the starter, the pointer's name if any, and the descriptor. */
export function combinedClue(
  starter: { name: string },
  pointer: Pick<Pointer, 'name'> | undefined,
  descriptor: string,
): string {
  return [starter.name, pointer?.name ?? '', descriptor]
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');
}
