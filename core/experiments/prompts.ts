// An implementation's prompts ('Prompt management'): the product's Prompt records, kept per
// implementation and checked against its placeholders; descriptor scoring shares production's
// 'scoring' prompts, so the one a run proves can be promoted. (Runs choose models from the AI
// model records, `Ai.list`.)
import * as v from 'valibot';
import { fn, VisibleError } from '#core/common';
import * as Prompts from '#core/prompts';
import { IMPLEMENTATIONS, implementation, promptsOf, type Implementation } from './catalog';

function managed(id: string): Implementation {
  const found = implementation(id);
  if (!found?.managesPrompts) {
    throw new VisibleError('experiment.no_prompts', 'Please select an implementation', 400);
  }
  return found;
}

/** An implementation's prompts, newest first, without removed ones. */
export async function prompts(implementationId: string): Promise<Prompts.Prompt[]> {
  const found = implementation(implementationId);
  if (!found?.fields.includes('prompt')) return [];
  return Prompts.list(promptsOf(found));
}

/** Adds a prompt to an implementation; its placeholders must be the implementation's. */
export const addPrompt = fn(Prompts.PromptInput, async (input) => {
  const owner = managed(input.expImplementationId);
  const stored = { ...input, expImplementationId: promptsOf(owner) };
  if (owner.promptsOf) return Prompts.create(stored);
  return Prompts.createFor({ name: owner.name, placeholders: owner.info })(stored);
});

/** A copy of a prompt, '(copy)' after its name, newest of its implementation's. */
export const duplicatePrompt = fn(
  v.object({ id: v.string(), systemUserId: v.optional(v.string(), '-') }),
  async ({ id, systemUserId }) => {
    const prompt = await Prompts.byId(id);
    if (!prompt || prompt.isDeleted) {
      throw new VisibleError('prompt.unknown', 'This prompt no longer exists', 404);
    }
    // The implementation whose prompts these are (descriptor scoring keeps production's 'scoring').
    const owner =
      IMPLEMENTATIONS.find((candidate) => promptsOf(candidate) === prompt.expImplementationId)
        ?.id ?? prompt.expImplementationId;
    return addPrompt({
      expImplementationId: owner,
      title: `${prompt.title} (copy)`.slice(0, 200),
      prompt: prompt.prompt,
      systemUserId,
    });
  },
);

/** Removes (hides) a prompt; the one production scoring uses is refused. */
export const removePrompt = (input: { id: string }) => Prompts.disable(input);

/** The default prompt each experiment implementation with prompts starts with (descriptor scoring has production's). */
const DEFAULT_PROMPTS: Record<string, { title: string; prompt: string }> = {
  'pick-best-content-per-descriptor': {
    title: 'Pick best content per descriptor (default)',
    prompt: Prompts.builtIn('pick-best-content').prompt,
  },
  'pick-best-content-per-user': {
    title: 'Pick best content per reader (default)',
    prompt: Prompts.builtIn('pick-best-content').prompt,
  },
  'score-articles-per-user': {
    title: 'Score articles per reader (default)',
    prompt: Prompts.builtIn('scoring').prompt,
  },
  'score-stories-per-user': {
    title: 'Score stories per reader (default)',
    prompt: Prompts.builtIn('scoring').prompt,
  },
  'content-categorization-by-scoring': {
    title: 'Categorize by scoring (default)',
    prompt: `Category: {audience}\nCategory clues:\n{clues}\n\nArticle\nTitle: {title}\nSummary: {summary}\n\nHow well does this article belong in each category?`,
  },
  'story-preprocessing-per-cluster': {
    title: 'One story from its articles (default)',
    prompt: `These {count} articles report the same event:\n\n{articles}\n\nWrite the story once: a short title, then what happened, who is involved and why it matters.`,
  },
};

/** Stores each experiment implementation's default prompt once (seed); answers how many were new. */
export function seedDefaultPrompts(systemUserId = '-'): Promise<number> {
  const defaults = Object.entries(DEFAULT_PROMPTS).map(([id, { title, prompt }]) => {
    const owner = implementation(id)!;
    Prompts.checkPlaceholders(prompt, { name: owner.name, placeholders: owner.info });
    return { expImplementationId: id, title, prompt };
  });
  // Dated after the automations' defaults (January 1st).
  return Prompts.seedDefaults(systemUserId, defaults, 2);
}
