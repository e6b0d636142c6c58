// Source <> audience matching: how well each source (stream) suits each audience, rated by the
// model from the source's recent headlines. 'Populate source and audience matching' rates the
// streams whose first-scoring flag is false against every active audience and then sets the flag;
// 'Audience matching' rates every stream again for one chosen audience.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import { VisibleError } from '#core/common';
import type { JobContext } from '#core/jobs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import * as Streams from '#core/streams';
import { SourceMatchEntity } from './entity';

export { SourceMatchEntity };
export type SourceMatch = EntityItem<typeof SourceMatchEntity>;

/** The newest articles read to find each source's headlines (a bounded read). */
export const ARTICLES_READ = 500;
/** Headlines per source a rating reads. */
export const HEADLINES_PER_SOURCE = 8;

export type MatchingSummary = {
  sources: number;
  audiences: number;
  matches: number;
  failed: number;
  withoutHeadlines: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Calls to a model whose price is not known: their cost is not in costUsd. */
  unpricedCalls: number;
};

/** Each stream's newest headlines, from the newest articles. */
async function headlinesByStream(): Promise<Map<string, string[]>> {
  const headlines = new Map<string, string[]>();
  for (const article of await Articles.latest(ARTICLES_READ)) {
    const list = headlines.get(article.streamId) ?? [];
    if (list.length < HEADLINES_PER_SOURCE) list.push(article.title);
    headlines.set(article.streamId, list);
  }
  return headlines;
}

/** An audience's sources, best match first: one Query of its partition (a few dozen items). */
export async function forAudience(audienceId: string): Promise<SourceMatch[]> {
  const { data } = await SourceMatchEntity.query.byAudience({ audienceId }).go({ pages: 'all' });
  return data.sort((a, b) => b.score - a.score);
}

async function match(
  streams: Streams.Stream[],
  audiences: Audiences.Audience[],
  automationId: 'source-audience-matching' | 'audience-matching',
  context: Pick<JobContext, 'processId' | 'log' | 'progress'>,
  flagWhenMatched = false,
): Promise<{ summary: MatchingSummary; matched: Streams.Stream[] }> {
  const [prompt, model, headlines] = await Promise.all([
    Prompts.current(automationId),
    Ai.configured('gpt'),
    headlinesByStream(),
  ]);
  const setup = { prompt, model, processId: context.processId, log: context.log };
  const targets = audiences.map(Scoring.audienceTarget);
  const summary: MatchingSummary = {
    sources: 0,
    audiences: audiences.length,
    matches: 0,
    failed: 0,
    withoutHeadlines: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
  };
  const matched: Streams.Stream[] = [];
  for (const [index, stream] of streams.entries()) {
    const titles = headlines.get(stream.id) ?? [];
    if (titles.length === 0 || targets.length === 0) {
      // Nothing to judge it by yet: it stays unmatched and is tried after its next import.
      summary.withoutHeadlines++;
      continue;
    }
    summary.sources++;
    const text = {
      id: stream.id,
      title: `${stream.name}: recent headlines`,
      summary: titles.join('\n'),
      publishedAt: new Date().toISOString(),
      source: stream.name,
    };
    let failed = false;
    for (let start = 0; start < targets.length; start += Scoring.AUDIENCES_PER_CALL) {
      const group = targets.slice(start, start + Scoring.AUDIENCES_PER_CALL);
      const rated = await Scoring.rate(text, group, setup);
      if ('error' in rated) {
        summary.failed += group.length;
        failed = true;
        continue;
      }
      summary.inputTokens += rated.usage.inputTokens;
      summary.outputTokens += rated.usage.outputTokens;
      summary.costUsd += rated.usage.costUsd ?? 0;
      if (rated.usage.costUsd === undefined) summary.unpricedCalls++;
      for (const target of group) {
        const rating = rated.ratings.get(target.id);
        if (!rating) {
          summary.failed++;
          failed = true;
          continue;
        }
        await SourceMatchEntity.put({
          audienceId: target.id,
          streamId: stream.id,
          streamName: stream.name,
          label: rating.label,
          score: Math.max(0, Math.min(1, rating.score)),
          reason: rating.reason.trim().slice(0, 1000) || `${rating.label}.`,
          headlines: titles.length,
          promptId: prompt.id,
          modelId: model.id,
          processId: context.processId,
          matchedAt: new Date().toISOString(),
        }).go();
        summary.matches++;
      }
    }
    if (!failed) matched.push(stream);
    // Flagged as soon as it is rated: a run cut short does not pay for it again.
    if (!failed && flagWhenMatched) await Streams.markFirstScoring(stream.id);
    await context.progress(
      (index + 1) / streams.length,
      `${index + 1} of ${streams.length} sources`,
    );
  }
  return { summary, matched };
}

/** Rates every stream not yet first-scored against every active audience, then flags it. */
export async function populate(
  context: Pick<JobContext, 'processId' | 'log' | 'progress'>,
): Promise<MatchingSummary> {
  const [streams, audiences] = await Promise.all([Streams.list(), Audiences.list()]);
  const { summary } = await match(
    streams.filter((stream) => !stream.firstScoring),
    audiences.filter((audience) => audience.state === 'active'),
    'source-audience-matching',
    context,
    true,
  );
  return summary;
}

export const AUDIENCE_MATCHING_MESSAGE = 'Audience matching error: Please select an audience';

export const AudienceChoice = (message: string) =>
  v.object({
    audienceId: v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(64, message)),
  });

/** Rates every stream again for one audience (any state: an upcoming audience can be prepared). */
export async function matchAudience(
  audienceId: string,
  context: Pick<JobContext, 'processId' | 'log' | 'progress'>,
): Promise<MatchingSummary> {
  const audience = await Audiences.byId(audienceId);
  if (!audience) throw new VisibleError('audience.unknown', AUDIENCE_MATCHING_MESSAGE, 400);
  const { summary } = await match(await Streams.list(), [audience], 'audience-matching', context);
  return summary;
}
