// Executing a run: a chunked job on the same runtime as production, in a slot of its own per run
// (two runs go at once; production's slots are never taken, so its schedules never skip for an
// experiment). A single implementation's units are its chunks; a chain runs as one chunk, step
// after step, each step's outcome the next one's input, each unit's results kept once done (a
// redelivered chain resumes after the last kept unit). When every chunk is done, the run's output
// is summed from the kept results.
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import { implementation, type Implementation } from './catalog';
import { freezeDataset, FreezeInput, thaw, type Frozen } from './datasets';
import { advance, runUnit, unitsOf, type State, type Step, type UnitResult } from './engine';
import { chunksOf, keepChunk, keepOutput, keptChunks } from './results';
import { runForJob, type RunItem } from './run-store';
import { summarise } from './summary';
import type { RunInput, StepSettings } from './types';

export const SUPERSEDED = 'The run was edited or executed again before this execution ran';

type ExperimentChunk = { step: number; ids: string[] } | { chain: true };

async function stepOf(index: number, owner: Implementation, settings: StepSettings): Promise<Step> {
  const [prompt, model] = await Promise.all([
    settings.expPromptId ? Prompts.byId(settings.expPromptId) : undefined,
    settings.expGptModelId ? Ai.byId(settings.expGptModelId) : undefined,
  ]);
  if (!model) throw new Error(`No AI model ${settings.expGptModelId ?? ''} for ${owner.name}`);
  // A model that cannot run here (no key) fails the run at once, with the reason, not per call.
  Ai.providerFor(model);
  if (owner.fields.includes('prompt') && !prompt) {
    throw new Error(`No prompt ${settings.expPromptId ?? ''} for ${owner.name}`);
  }
  return {
    index,
    implementation: owner,
    settings,
    model,
    ...(prompt && { prompt: { id: prompt.id, title: prompt.title, prompt: prompt.prompt } }),
  };
}

/** A run's steps: its own implementation, or a chain's steps in order. */
export async function stepsOf(item: RunItem): Promise<{ steps: Step[]; input: RunInput }> {
  const owner = implementation(item.expImplementationId);
  if (!owner) throw new Error(`Unknown implementation ${item.expImplementationId}`);
  const input = JSON.parse(item.input) as RunInput;
  if (owner.kind !== 'chain') return { steps: [await stepOf(0, owner, input)], input };
  const steps = await Promise.all(
    (input.steps ?? []).map((step, index) => {
      const stepOwner = implementation(step.expImplementationId);
      if (!stepOwner || stepOwner.kind === 'chain')
        throw new Error('A chain step must be an implementation that is not a chain');
      return stepOf(index, stepOwner, step);
    }),
  );
  return { steps, input };
}

const startState = (frozen: Frozen): State => ({ frozen, stories: frozen.stories });

/** Each step scores into a store of its own within the execution. */
const storeKey = (processId: string, step: number) => `${processId}#${step}`;

async function current(runId: string, processId: string, revision?: number): Promise<RunItem> {
  const item = await runForJob(runId, processId, revision);
  if (!item) throw new Error(SUPERSEDED);
  return item;
}

const totalsOf = (results: UnitResult[]): Jobs.ChunkTotals => {
  const totals = { calls: 0, inputTokens: 0, outputTokens: 0, entries: 0 };
  for (const result of results) {
    totals.calls += result.usage.calls;
    totals.inputTokens += result.usage.inputTokens;
    totals.outputTokens += result.usage.outputTokens;
    totals.entries += result.entries.length;
  }
  return totals;
};

/**
 * A chain's steps in order, each unit's results kept on their own (a step's whole results may not
 * fit one item): a redelivered chain reuses the units kept and runs the rest.
 */
async function runChain(steps: Step[], state: State, processId: string): Promise<UnitResult[]> {
  const kept = await keptChunks(processId);
  const all: UnitResult[] = [];
  for (const step of steps) {
    const done = kept.get(step.index);
    const results: UnitResult[] = [];
    for (const [unit, ids] of unitsOf(step, state).entries()) {
      const ran =
        done?.get(unit) ??
        // A second worker's results, kept first, are the ones that count.
        (await keepChunk(processId, step.index, unit, [
          await runUnit(step, state, ids, storeKey(processId, step.index)),
        ]));
      results.push(...ran);
    }
    all.push(...results);
    state = advance(step, state, results);
  }
  return all;
}

export const runExperiment = Jobs.defineChunkedJob({
  name: 'experiment-run',
  title: 'Running an experiment',
  slotFor: ({ runId }) => `experiment#${runId}`,
  input: v.object({
    runId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
    /** The run's revision once this execution was named on it. */
    revision: v.optional(v.pipe(v.number(), v.integer())),
  }),
  async plan({ runId, revision }, context): Promise<ExperimentChunk[]> {
    const item = await current(runId, context.processId, revision);
    const { steps, input } = await stepsOf(item);
    if (steps.length > 1 || implementation(item.expImplementationId)?.kind === 'chain') {
      return [{ chain: true }];
    }
    const state = startState(await thaw(input.dataset));
    return unitsOf(steps[0]!, state).map((ids) => ({ step: 0, ids }));
  },
  async runChunk(chunk, { runId, revision }, context) {
    const item = await current(runId, context.processId, revision);
    const { steps, input } = await stepsOf(item);
    const state = startState(await thaw(input.dataset));
    if ('chain' in chunk) return totalsOf(await runChain(steps, state, context.processId));
    const step = steps[chunk.step]!;
    const result = await runUnit(step, state, chunk.ids, storeKey(context.processId, step.index));
    await keepChunk(context.processId, step.index, context.chunk, [result]);
    return totalsOf([result]);
  },
  async succeeded({ runId, revision }, context) {
    const item = await runForJob(runId, context.processId, revision);
    // Edited since: nothing of this execution is shown (the run names none).
    if (!item) return;
    const { steps, input } = await stepsOf(item);
    const frozen = await thaw(input.dataset);
    const process = await Jobs.byId(context.processId);
    const startedAt = Date.parse(
      process?.startTime ?? process?.createdAt ?? new Date().toISOString(),
    );
    await keepOutput(
      context.processId,
      summarise(steps, await chunksOf(context.processId), frozen, Date.now() - startedAt),
    );
  },
});

/** Freezing a dataset reads many articles and scores and may embed them: a job, never a request. */
export const freezeDatasetJob = Jobs.defineJob({
  name: 'experiment-dataset-freeze',
  title: 'Freezing an experiment dataset',
  input: FreezeInput,
  run: async (input, context) => {
    const dataset = await freezeDataset({ ...input, systemUserId: context.systemUserId });
    context.log.info(`Froze the dataset ${dataset.name}`, { datasetId: dataset.id });
    return dataset;
  },
});
