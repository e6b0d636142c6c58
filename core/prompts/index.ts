// Prompts as data: editors keep prompt texts per automation (the spec's Prompt), checked when
// saved so a job never meets a placeholder it cannot fill. Newest first; deleted ones hidden.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { fn, freeText, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import { AUTOMATIONS, automation, type Automation } from './automations';
import { PromptEntity } from './entity';
import { ProductionScoringEntity } from './production-entity';
import { checkPlaceholders, fill, type PromptInputs } from './placeholders';

// Production's setup names a prompt, and a prompt's delete is checked against it in one
// transaction: the entity lives here so scoring (which reads prompts) is never read back.
export { PromptEntity, ProductionScoringEntity, AUTOMATIONS, automation };
export { placeholdersIn, checkPlaceholders, fill, type PromptInputs } from './placeholders';
export type { Automation, Placeholder } from './automations';
export type Prompt = EntityItem<typeof PromptEntity>;

export const PROMPT_MESSAGES = {
  title: 'Please add a name',
  prompt: 'Please add a prompt',
  invalidId: 'Could not delete prompt - Invalid prompt id',
  inProduction:
    'Could not delete prompt - production scoring uses it; promote another prompt on Content Automations first',
};

export const PromptInput = v.object({
  expImplementationId: v.pipe(v.string(), v.nonEmpty('Please select an implementation')),
  title: v.pipe(
    freeText({
      max: 200,
      tooLong: 'A prompt name has at most 200 characters',
      missing: PROMPT_MESSAGES.title,
    }),
    v.nonEmpty(PROMPT_MESSAGES.title),
  ),
  prompt: v.pipe(
    freeText({
      max: 20_000,
      tooLong: 'A prompt has at most 20,000 characters',
      missing: PROMPT_MESSAGES.prompt,
      lines: 'multi',
    }),
    v.nonEmpty(PROMPT_MESSAGES.prompt),
  ),
  systemUserId: v.optional(v.string(), '-'),
});

function automationOf(id: string) {
  const found = automation(id);
  if (!found)
    throw new VisibleError('prompt.unknown_implementation', `Unknown implementation ${id}`, 400);
  return found;
}

/** Saves a prompt after checking its placeholders against its automation's. */
export const create = fn(PromptInput, (input) =>
  save(input, automationOf(input.expImplementationId)),
);

/**
 * Saves a prompt of an implementation this module does not list (an experiment's), checked
 * against the placeholders its owner gives.
 */
export const createFor = (owner: Pick<Automation, 'name' | 'placeholders'>) =>
  fn(PromptInput, (input) => save(input, owner));

async function save(
  input: v.InferOutput<typeof PromptInput>,
  owner: Pick<Automation, 'name' | 'placeholders'>,
): Promise<Prompt> {
  checkPlaceholders(input.prompt, owner);
  const { data } = await PromptEntity.create({
    ...input,
    id: ulid(),
    createdAt: new Date().toISOString(),
    isDeleted: false,
  }).go();
  return data;
}

export async function byId(id: string): Promise<Prompt | undefined> {
  const { data } = await PromptEntity.get({ id }).go();
  return data ?? undefined;
}

/** An implementation's prompts, newest first, without deleted ones. */
export async function list(expImplementationId: string): Promise<Prompt[]> {
  const { data } = await PromptEntity.query
    .byImplementation({ expImplementationId })
    .where(({ isDeleted }, { eq }) => eq(isDeleted, false))
    .go({ order: 'desc', pages: 'all' });
  return data;
}

/**
 * Hides a prompt (results that used it keep its id and text). The prompt production scoring uses
 * is refused until another is promoted: the delete is conditioned, in the same transaction, on the
 * production setup not naming it, so a promote at the same moment cannot leave production on a
 * deleted prompt (docs/decisions/0032-production-scoring-setup.md).
 */
export const disable = fn(
  v.object({
    id: v.pipe(v.string(PROMPT_MESSAGES.invalidId), v.nonEmpty(PROMPT_MESSAGES.invalidId)),
  }),
  async ({ id }) => {
    // Until the first promote, production scores with the built-in scoring prompt.
    const builtInScoring = id === defaultPromptId('scoring');
    const written = await createWriteTransaction(
      { prompt: PromptEntity, production: ProductionScoringEntity },
      (entities) => [
        entities.prompt.patch({ id }).set({ isDeleted: true }).commit(),
        entities.production
          .check({})
          .where(({ promptId }, { exists, notExists, ne }) =>
            builtInScoring
              ? `${exists(promptId)} AND ${ne(promptId, id)}`
              : `${notExists(promptId)} OR ${ne(promptId, id)}`,
          )
          .commit(),
      ],
    )
      .go()
      .catch((error: unknown) => {
        if (isConditionFailure(error)) return { canceled: true };
        throw error;
      });
    if (!written.canceled) return;
    if (!(await byId(id))) {
      throw new VisibleError('prompt.invalid_id', PROMPT_MESSAGES.invalidId, 404);
    }
    throw new VisibleError('prompt.in_production', PROMPT_MESSAGES.inProduction, 409);
  },
);

/** The prompt a job uses when none is chosen: the newest, else the built-in default. */
export async function current(
  expImplementationId: string,
): Promise<Pick<Prompt, 'id' | 'prompt' | 'title'>> {
  // Requests ask for it (assessments, the assistant): the newest shown prompt, not all of them.
  const { data } = await PromptEntity.query
    .byImplementation({ expImplementationId })
    .where(({ isDeleted }, { eq }) => eq(isDeleted, false))
    .go({ order: 'desc', count: 1 });
  return data[0] ?? builtIn(expImplementationId);
}

/** An automation's built-in default prompt, under the id the seed stores it with. */
export function builtIn(expImplementationId: string): Pick<Prompt, 'id' | 'prompt' | 'title'> {
  const { id, defaultTitle, defaultPrompt } = automationOf(expImplementationId);
  return { id: defaultPromptId(id), title: defaultTitle, prompt: defaultPrompt };
}

/** Fills a prompt's placeholders from a job's named inputs. */
export function render(prompt: Pick<Prompt, 'prompt'>, inputs: PromptInputs): string {
  return fill(prompt.prompt, inputs);
}

export const defaultPromptId = (automationId: string) => `default-${automationId}`;

/** A default prompt the seed stores, under `defaultPromptId(expImplementationId)`. */
export type DefaultPrompt = Pick<Prompt, 'expImplementationId' | 'title' | 'prompt'>;

const automationDefaults = (): DefaultPrompt[] =>
  AUTOMATIONS.map(({ id, defaultTitle, defaultPrompt }) => ({
    expImplementationId: id,
    title: defaultTitle,
    prompt: defaultPrompt,
  }));

/**
 * Stores each default prompt once (seed, first start): the automations', or the ones given (an
 * experiment's), dated `day` of January 2026 so an editor's later prompt is always the newer one.
 * Returns how many were new.
 */
export async function seedDefaults(
  systemUserId = '-',
  defaults: DefaultPrompt[] = automationDefaults(),
  day = 1,
): Promise<number> {
  let created = 0;
  for (const [index, { expImplementationId, title, prompt }] of defaults.entries()) {
    try {
      await PromptEntity.create({
        id: defaultPromptId(expImplementationId),
        expImplementationId,
        title,
        prompt,
        createdAt: new Date(Date.UTC(2026, 0, day, 0, 0, index)).toISOString(),
        systemUserId,
        isDeleted: false,
      }).go();
      created++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return created;
}
