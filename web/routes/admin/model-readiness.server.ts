// Whether an AI model can run here, asked of the same adapter choice a job makes, so a screen
// offers only models that can run and says why the others cannot.
import * as Ai from '#core/ai';

/** Why the model cannot run with this configuration (no key, no server); undefined when it can. */
export function whyModelCannotRun(model: Ai.AiModelRef): string | undefined {
  try {
    Ai.providerFor(model);
    return undefined;
  } catch (error) {
    if (error instanceof Ai.AiNotConfigured) return error.message;
    throw error;
  }
}

/** Models split into those that can run and, for the others, a line saying why not. */
export function runnable<M extends Ai.AiModelRef>(models: M[]) {
  const ready: M[] = [];
  const notOffered: string[] = [];
  for (const model of models) {
    const why = whyModelCannotRun(model);
    if (why) notOffered.push(`${Ai.displayName(model)}: ${why}`);
    else ready.push(model);
  }
  return { ready, notOffered };
}
