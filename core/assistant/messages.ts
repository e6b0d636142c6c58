// How the assistant's messages are shown (spec §7): split into bubbles at blank lines and list
// dashes, JSON about clues hidden, and a clues review read leniently (invalid JSON is logged and
// ignored). Pure, so the chat in the browser uses the same rules.

/** One bubble per paragraph and per list item (its dash dropped); empty pieces are left out. */
export function splitMessage(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n|^[ \t]*[-–•][ \t]+|\n[ \t]*[-–•][ \t]+/m)
    .map((piece) => piece.trim())
    .filter(Boolean);
}

/** The JSON a message holds: the whole text, or a fenced ```json block in it. */
function jsonOf(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  for (const candidate of [text.trim(), fenced?.trim()]) {
    if (!candidate || !/^[[{]/.test(candidate)) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // Not JSON: shown as text.
    }
  }
  return undefined;
}

/** A message that is JSON mentioning clues or Reasoning is data for the app, not for the reader. */
export function isHiddenJson(text: string): boolean {
  const json = jsonOf(text);
  return typeof json === 'object' && json !== null && /clues|reasoning/i.test(text);
}

/** A clues review as the app uses it, whatever its category's shape. */
export type ClueReview = {
  /** Onboarding: the clues found; change_clues: the same as cluesToBeAdded. */
  clues: string[];
  suggestion: string;
  cluesToBeAdded: string[];
  cluesToBeRemoved: string[];
  cluesToRemain: string[];
  /** Topics to stop showing and to show again (a change of clues only). */
  mutesToBeAdded: string[];
  mutesToBeRemoved: string[];
};

/** Items as the assistant sends them ({ clue }, { mute }) or as text; anything else is skipped. */
function cluesIn(value: unknown, key: 'clue' | 'mute' = 'clue'): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  return value
    .map((item: unknown) => {
      if (typeof item === 'string') return item;
      const field =
        typeof item === 'object' && item !== null
          ? (item as Record<string, unknown>)[key]
          : undefined;
      return typeof field === 'string' ? field : '';
    })
    .map((clue) => clue.trim())
    .filter(Boolean);
}

/**
 * Reads a clues review (onboarding { clues, suggestion }, or change_clues cluesToBeAdded /
 * cluesToBeRemoved / cluesToRemain). Invalid JSON or a wrong shape is logged and ignored: the
 * answer is undefined and the chat carries on.
 */
export function parseClues(
  text: string,
  log: (message: string, detail: unknown) => void = (message, detail) =>
    console.warn(message, detail),
): ClueReview | undefined {
  const json = jsonOf(text);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    log('Assistant: invalid clues JSON ignored', text.slice(0, 200));
    return undefined;
  }
  const record = json as Record<string, unknown>;
  const clues = cluesIn(record.clues);
  const added = cluesIn(record.cluesToBeAdded);
  const removed = cluesIn(record.cluesToBeRemoved);
  const remain = cluesIn(record.cluesToRemain);
  const mute = cluesIn(record.mutesToBeAdded, 'mute');
  const unmute = cluesIn(record.mutesToBeRemoved, 'mute');
  const known = ['clues', 'cluesToBeAdded', 'cluesToBeRemoved', 'cluesToRemain'].some(
    (key) => key in record,
  );
  if (!known || !clues || !added || !removed || !remain || !mute || !unmute) {
    log('Assistant: clues JSON of an unknown shape ignored', text.slice(0, 200));
    return undefined;
  }
  const found = 'clues' in record ? clues : added;
  return {
    clues: found,
    suggestion: typeof record.suggestion === 'string' ? record.suggestion : '',
    cluesToBeAdded: 'cluesToBeAdded' in record ? added : found,
    cluesToBeRemoved: removed,
    cluesToRemain: remain,
    mutesToBeAdded: mute,
    mutesToBeRemoved: unmute,
  };
}
