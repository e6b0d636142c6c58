// What a finished run did, in a line an operator reads: the numbers each automation reports
// (pairs scored, model calls, tokens and cost), from the output the job stored.
import type { ProcessView } from './processes';

export type RunView = ProcessView & { output?: string; error?: string; endTime?: string };

const n = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;

/** '$0.0123', or 'no cost' for the local provider. */
export function cost(usd: number): string {
  return usd > 0 ? `$${usd.toFixed(usd < 0.01 ? 4 : 2)}` : 'no cost';
}

function usage(output: Record<string, unknown>): string {
  const tokens = n(output.inputTokens) + n(output.outputTokens);
  // A model without a known price (a self-hosted server) is not free: its cost is unknown.
  const unpriced = n(output.unpricedCalls) > 0 || output.costUsd === null;
  const spent = unpriced
    ? n(output.costUsd) > 0
      ? `${cost(n(output.costUsd))} plus an unknown cost`
      : 'cost unknown'
    : cost(n(output.costUsd));
  return `${plural(tokens, 'token')} (${n(output.inputTokens).toLocaleString('en-GB')} in, ${n(output.outputTokens).toLocaleString('en-GB')} out), ${spent}`;
}

export function parseOutput(run: Pick<RunView, 'output'>): Record<string, unknown> {
  try {
    const output: unknown = JSON.parse(run.output ?? 'null');
    return output && typeof output === 'object' ? (output as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One line for a finished run; undefined while it runs or when it stored nothing to tell. */
export function runSummary(run: RunView): string | undefined {
  if (run.status === 'Failed') return run.error ? `Failed: ${run.error}` : 'Failed';
  if (run.status !== 'Success') return undefined;
  const output = parseOutput(run);
  switch (run.name) {
    case 'score-articles':
    case 'score-articles-experiment':
      return [
        `${plural(n(output.scored), 'pair')} scored`,
        `${n(output.alreadyScored).toLocaleString('en-GB')} already scored`,
        `${n(output.failed).toLocaleString('en-GB')} failed`,
        `${plural(n(output.calls), 'model call')} in ${plural(n(output.chunks), 'chunk')}`,
        usage(output),
      ].join(', ');
    case 'populate-source-audience-matching':
    case 'audience-matching':
      return [
        `${plural(n(output.matches), 'match', 'matches')} for ${plural(n(output.sources), 'source')}`,
        `${n(output.failed).toLocaleString('en-GB')} failed`,
        `${plural(n(output.withoutHeadlines), 'source')} without headlines yet`,
        usage(output),
      ].join(', ');
    case 'prompt-testing':
      return [
        `${plural(Array.isArray(output.results) ? output.results.length : 0, 'prompt')} tested for "${String(output.audience ?? '')}"`,
        `${plural(n(output.scored), 'pair')} scored`,
        usage(output),
      ].join(', ');
    case 'send-newsletters':
      return [
        `${plural(n(output.queued), 'issue')} queued for delivery`,
        `${n(output.alreadyDone).toLocaleString('en-GB')} already had it`,
        `${n(output.skipped).toLocaleString('en-GB')} skipped`,
        `${n(output.failed).toLocaleString('en-GB')} failed`,
      ].join(', ');
    case 'pick-best-content':
      return [
        `${plural(n(output.cards), 'content card')}`,
        `${plural(n(output.picks), 'pick')}`,
        `${plural(n(output.skipped), 'audience')} skipped`,
        usage(output),
      ].join(', ');
    default:
      return undefined;
  }
}
