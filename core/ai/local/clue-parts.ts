// The parts of a clue a reader can point at: the items of its list ("audits, exploits and formal
// verification"), its comma phrases (", with a focus on security") and its prepositional phrases
// (" on Ethereum"). Dropping, keeping or swapping parts rebuilds the clue as English: the list is
// joined again with its own conjunction, so "audits, exploits and formal verification" without
// the last item reads "audits and exploits".
import { terms } from './text';

/** A clue split around its list: frame + items joined by the conjunction + what follows. */
type ClueList = { frame: string; items: string[]; conj: string; oxford: boolean; after: string };

const PREPOSITIONS = /^(on|in|about|of|for|with|into|across|around|at|from|behind|like)$/i;
/** Where a list item ends: the next comma phrase is no item ("..., with a focus on X"). */
const SEGMENT = /,\s+/;

export const stemsOf = (text: string) => new Set(terms(text).map((t) => t.stem));

/** The frame before a clue's first item: after a colon, a last preposition, or "I <verb>". */
function frameEnd(segment: string): number {
  const colon = segment.lastIndexOf(':');
  if (colon >= 0) return colon + 1 + (/^\s*/.exec(segment.slice(colon + 1))?.[0].length ?? 0);
  const words = [...segment.matchAll(/\S+/g)];
  for (let i = words.length - 2; i >= 1; i--) {
    if (PREPOSITIONS.test(words[i]![0])) return words[i + 1]!.index;
  }
  const lead =
    /^I\s+(?:am\s+(?:an?\s+|into\s+|interested\s+in\s+)?|\S+\s+(?:about\s+|in\s+)?)/i.exec(segment);
  return lead ? lead[0].length : 0;
}

/** The clue's list: its items (one when it has none) between a frame and a tail. */
export function listOf(clue: string): ClueList {
  const colon = clue.indexOf(':');
  const start = colon >= 0 ? colon + 1 : 0;
  const conj = /(,?)\s+(and|or|&)\s+/i.exec(clue.slice(start));
  if (!conj) {
    const [head = '', ...rest] = clue.split(SEGMENT);
    const at = frameEnd(head);
    return {
      frame: head.slice(0, at),
      items: [head.slice(at)],
      conj: 'and',
      oxford: false,
      after: rest.length > 0 ? `, ${rest.join(', ')}` : '',
    };
  }
  const conjAt = start + conj.index;
  const left = clue.slice(0, conjAt).split(SEGMENT);
  const right = clue.slice(conjAt + conj[0].length).split(SEGMENT);
  const head = left[0]!;
  const at = frameEnd(head);
  return {
    frame: head.slice(0, at),
    items: [head.slice(at), ...left.slice(1), right[0]!].map((item) => item.trim()),
    conj: conj[2]!,
    oxford: conj[1] === ',' && left.length > 1,
    after: right.length > 1 ? `, ${right.slice(1).join(', ')}` : '',
  };
}

function joined(items: string[], conj: string, oxford: boolean): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} ${conj} ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}${oxford ? ',' : ''} ${conj} ${items.at(-1)}`;
}

const rebuild = (list: ClueList, items: string[]) =>
  `${list.frame}${joined(items, list.conj, list.oxford)}${list.after}`.replace(/\s+/g, ' ').trim();

/** How well a reader's words name a part: shared stems over all stems of both (0..1). */
export function likeness(words: Set<string>, part: Set<string>): number {
  const shared = [...words].filter((s) => part.has(s)).length;
  return shared / Math.max(1, new Set([...words, ...part]).size);
}

/** A part of a clue as written, and the clue without it. */
type Part = { text: string; without: string; keepOnly?: string };

/** Every part a reader may point at, with the clue rebuilt without it. */
function partsOf(clue: string): Part[] {
  const list = listOf(clue);
  const parts: Part[] = [];
  if (list.items.length > 1) {
    list.items.forEach((item, i) => {
      parts.push({
        text: item,
        without: rebuild(
          list,
          list.items.filter((_, j) => j !== i),
        ),
      });
    });
  }
  const segments = clue.split(SEGMENT);
  segments.slice(1).forEach((segment, i) => {
    parts.push({
      text: segment,
      without: [...segments.slice(0, i + 1), ...segments.slice(i + 2)].join(', '),
    });
  });
  // A prepositional phrase up to the next comma: " on Ethereum", " for DAOs".
  for (const match of clue.matchAll(/\s(on|in|for|across|with|at)\s+([^,:]+)/gi)) {
    const without = `${clue.slice(0, match.index)}${clue.slice(match.index + match[0].length)}`;
    parts.push({ text: match[2]!, without: without.replace(/\s+/g, ' ').trim() });
  }
  return parts;
}

/** Whether what is left of a clue still names a topic (not only "I research"). */
const namesTopic = (clue: string, frame: string) =>
  [...stemsOf(clue)].some((stem) => !stemsOf(frame).has(stem));

/**
 * The clue without the part a reader named ("formal verification"), or undefined when no part
 * of it is named well enough or nothing would be left.
 */
export function withoutPart(clue: string, named: string): string | undefined {
  const words = stemsOf(named);
  if (words.size === 0) return undefined;
  let best: { part: Part; score: number } | undefined;
  for (const part of partsOf(clue)) {
    const score = likeness(words, stemsOf(part.text));
    if (score >= 0.5 && (!best || score > best.score)) best = { part, score };
  }
  if (!best || !namesTopic(best.part.without, listOf(clue).frame)) return undefined;
  return best.part.without;
}

/**
 * The clue keeping only the list items a reader named ("keep only audits"), or undefined when
 * they name no item, or all of them.
 */
export function keepingOnly(clue: string, named: string[]): string | undefined {
  const list = listOf(clue);
  if (list.items.length < 2) return undefined;
  const kept = list.items.filter((item) =>
    named.some((name) => likeness(stemsOf(name), stemsOf(item)) >= 0.5),
  );
  if (kept.length === 0 || kept.length === list.items.length) return undefined;
  return rebuild(list, kept);
}

/** The clue with the part a reader named swapped for their new words ("MEV" -> "restaking"). */
export function swappingPart(clue: string, named: string, by: string): string | undefined {
  const list = listOf(clue);
  const words = stemsOf(named);
  const at = list.items.findIndex((item) => likeness(words, stemsOf(item)) >= 0.5);
  if (at < 0) return undefined;
  return rebuild(
    list,
    list.items.map((item, i) => (i === at ? by : item)),
  );
}

/** The clue's frame with new words: "I collect generative art" + "photography". */
export const reframed = (clue: string, by: string) =>
  `${listOf(clue).frame}${by}`.replace(/\s+/g, ' ').trim();
