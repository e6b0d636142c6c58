// What a finished run did, in sentences an operator reads: the numbers each automation reports
// (articles imported, pairs scored, issues queued, model calls, tokens and cost), from the output
// the job stored.
import { skippedBreakdown } from './campaign-view';
import type { ProcessView } from './processes';

export type RunView = ProcessView & { output?: string; error?: string; endTime?: string };

const n = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const count = (value: number) => value.toLocaleString('en-GB');
const plural = (value: number, one: string, many = `${one}s`) =>
  `${count(value)} ${value === 1 ? one : many}`;

/** '$0.0123', or 'no cost' for the local provider. */
export function cost(usd: number): string {
  return usd > 0 ? `$${usd.toFixed(usd < 0.01 ? 4 : 2)}` : 'no cost';
}

/** 'It used 1,234 tokens (1,000 in, 234 out), no cost.' */
function usage(output: Record<string, unknown>): string {
  const tokens = n(output.inputTokens) + n(output.outputTokens);
  // A model without a known price (a self-hosted server) is not free: its cost is unknown.
  const unpriced = n(output.unpricedCalls) > 0 || output.costUsd === null;
  const spent = unpriced
    ? n(output.costUsd) > 0
      ? `${cost(n(output.costUsd))} plus an unknown cost`
      : 'cost unknown'
    : cost(n(output.costUsd));
  return `It used ${plural(tokens, 'token')} (${count(n(output.inputTokens))} in, ${count(n(output.outputTokens))} out), ${spent}.`;
}

export function parseOutput(run: Pick<RunView, 'output'>): Record<string, unknown> {
  try {
    const output: unknown = JSON.parse(run.output ?? 'null');
    return output && typeof output === 'object' ? (output as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** '276 article–audience pairs scored (12 already scored, none failed) with 28 model calls in 3 chunks.' */
function scored(output: Record<string, unknown>, pair: string): string {
  const failed = n(output.failed);
  const calls = output.calls === undefined ? '' : ` with ${plural(n(output.calls), 'model call')}`;
  const chunks = output.chunks === undefined ? '' : ` in ${plural(n(output.chunks), 'chunk')}`;
  return `${plural(n(output.scored), pair)} scored (${count(n(output.alreadyScored))} already scored, ${failed ? `${count(failed)} failed` : 'none failed'})${calls}${chunks}.`;
}

/** What a finished run did, in sentences; undefined while it runs or when it stored nothing to tell. */
export function runSummary(run: RunView): string | undefined {
  if (run.status === 'Failed') return run.error ? `It failed: ${run.error}` : 'It failed.';
  if (run.status !== 'Success') return undefined;
  const output = parseOutput(run);
  switch (run.name) {
    case 'import-articles':
      return [
        `${plural(n(output.feeds), 'stream')}: ${count(n(output.imported))} imported, ${count(n(output.notModified))} unchanged since the last import, ${count(n(output.failed))} failed, ${count(n(output.skipped))} waiting after repeated failures, ${count(n(output.paused))} paused.`,
        `${plural(n(output.newArticles), 'new article')}, ${count(n(output.duplicates))} already stored.`,
      ].join(' ');
    case 'add-stream-and-import-articles':
      return output.notModified
        ? 'The feed had not changed since its last import.'
        : `${plural(n(output.found), 'story', 'stories')} in the feed: ${plural(n(output.new), 'new article')}, ${count(n(output.duplicates))} already stored.`;
    case 'clear-table':
      return `${plural(n(output.deleted), 'item')} deleted.`;
    case 'score-articles':
    case 'score-new-clues':
      return `${scored(output, 'article–audience/reader pair')} ${usage(output)}`;
    case 'score-articles-experiment':
      return `${scored(output, 'article–audience pair')} ${usage(output)}`;
    // Runs from before readers were scored inside 'score-articles' (ADR 0033), still in the history.
    case 'score-user-articles':
      return `${scored(output, 'article–reader pair')} ${usage(output)}`;
    case 'populate-source-audience-matching':
    case 'audience-matching':
      return [
        `${plural(n(output.matches), 'source–audience match', 'source–audience matches')} for ${plural(n(output.sources), 'source')} (${count(n(output.failed))} failed, ${plural(n(output.withoutHeadlines), 'source')} without headlines yet).`,
        usage(output),
      ].join(' ');
    case 'prompt-testing':
      return [
        `${plural(Array.isArray(output.results) ? output.results.length : 0, 'prompt')} tested for those who ${String(output.audience ?? '')}: ${plural(n(output.scored), 'article–audience pair')} scored.`,
        usage(output),
      ].join(' ');
    case 'send-newsletters':
      return `${plural(n(output.queued), 'issue')} queued for delivery; ${plural(n(output.alreadyDone), 'subscriber')} had it already, ${skippedBreakdown(output, n(output.skipped), 'skipped')}, ${count(n(output.failed))} failed.`;
    case 'pick-best-content':
      return [
        `${plural(n(output.cards), 'content card')} with ${plural(n(output.picks), 'pick')}; ${plural(n(output.skipped), 'audience')} skipped.`,
        usage(output),
      ].join(' ');
    default:
      return undefined;
  }
}
