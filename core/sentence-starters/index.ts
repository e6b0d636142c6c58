// Sentence starters for the get-started funnel: the phrases a clue begins with ("I build") and
// their pointers, listed in order with the 'Add your own' option last, plus the funnel's pure
// rules (rules.ts). Seeded for the demo; `create` is the one write.
import * as v from 'valibot';
import { fn, freeText, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import { SentenceStarterEntity } from './entity';
import { orderPointers, skipsToClue, type Pointer } from './rules';

export { SentenceStarterEntity };
export { ADD_YOUR_OWN, combinedClue, orderPointers, skipsToClue, type Pointer } from './rules';

/** A starter as the funnel shows it: pointers ordered, 'Add your own' last, skip-to-clue known. */
export type SentenceStarter = {
  id: string;
  name: string;
  ordering: number;
  pointers: Pointer[];
  skipToClue: boolean;
};

const Phrase = (what: string, max: number) =>
  freeText({
    max,
    tooLong: `${what} has at most ${max} characters`,
    missing: `${what} must be text`,
    lines: 'collapse',
  });

const PointerInput = v.object({
  name: v.optional(Phrase('A pointer', 100)),
  ordering: v.pipe(v.number(), v.integer()),
  examples: v.optional(
    v.pipe(v.array(v.pipe(Phrase('An example', 200), v.nonEmpty())), v.maxLength(10)),
    [],
  ),
});

export const SentenceStarterInput = v.object({
  id: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, 'A starter id is a ULID'))),
  name: v.pipe(Phrase('A sentence starter', 100), v.nonEmpty('Please add a sentence starter')),
  ordering: v.pipe(v.number(), v.integer()),
  pointers: v.optional(
    v.pipe(
      v.array(PointerInput),
      v.maxLength(20, 'A sentence starter has at most 20 pointers'),
      v.check(
        (pointers) => pointers.filter((pointer) => !pointer.name).length <= 1,
        'Only one pointer may be unnamed (it carries the examples of Add your own)',
      ),
    ),
    [],
  ),
  createdAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});

function shown(item: {
  id: string;
  name: string;
  ordering: number;
  pointers?: { name?: string; ordering: number; examples?: string[] }[];
}): SentenceStarter {
  const pointers = (item.pointers ?? []).map((pointer) => ({
    ...pointer,
    examples: pointer.examples ?? [],
  }));
  return {
    id: item.id,
    name: item.name,
    ordering: item.ordering,
    pointers: orderPointers(pointers),
    skipToClue: skipsToClue({ pointers }),
  };
}

/** Adds a starter; the same id twice is refused (the seed checks first). */
export const create = fn(SentenceStarterInput, async (input): Promise<SentenceStarter> => {
  const item = {
    ...input,
    id: input.id ?? ulid(),
    pointers: input.pointers.map(({ name, ordering, examples }) =>
      name ? { name, ordering, examples } : { ordering, examples },
    ),
    createdAt: input.createdAt ?? new Date().toISOString(),
  };
  try {
    await SentenceStarterEntity.create(item).go();
  } catch (error) {
    if (isConditionFailure(error)) {
      throw new VisibleError('sentence_starter.exists', 'This sentence starter exists', 409);
    }
    throw error;
  }
  return shown(item);
});

export async function byId(id: string): Promise<SentenceStarter | undefined> {
  const { data } = await SentenceStarterEntity.get({ id }).go();
  return data ? shown(data) : undefined;
}

/** Every starter by its ordering (then name), as GET sentence-starters answers. */
export async function list(): Promise<SentenceStarter[]> {
  const { data } = await SentenceStarterEntity.query.all({}).go({ pages: 'all' });
  return data
    .map(shown)
    .sort(
      (a, b) => a.ordering - b.ordering || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    );
}
