// Each section of the analytics page as CSV: the rows of its tables, one `table` column naming
// which table a row belongs to (its other columns stay empty where that table has none).
import { csvText, type CsvValue } from '#core/common';
import { ratioCell, STEP_LABELS, stepRatio } from './figures';
import type { Section } from './filters';
import {
  FUNNEL_STEPS,
  READER_STEPS,
  SUBSCRIBER_STEPS,
  type AnalyticsReport,
  type FunnelStep,
  type StepCounts,
} from '#core/campaign-analytics';

/** Counts of every step, then the ratio of each step to the one before it, per funnel. */
function stepColumns(): string[] {
  const ratios = (steps: readonly FunnelStep[]) =>
    steps.slice(1).map((step, index) => `${STEP_LABELS[step]} / ${STEP_LABELS[steps[index]!]}`);
  return [
    ...FUNNEL_STEPS.map((step) => STEP_LABELS[step]),
    ...ratios(SUBSCRIBER_STEPS),
    ...ratios(READER_STEPS),
  ];
}

function stepCells(counts: StepCounts): CsvValue[] {
  const ratios = (steps: readonly FunnelStep[]) =>
    steps.slice(1).map((_, index) => ratioCell(stepRatio(counts, steps, index + 1)));
  return [
    ...FUNNEL_STEPS.map((step) => counts[step]),
    ...ratios(SUBSCRIBER_STEPS),
    ...ratios(READER_STEPS),
  ];
}

function funnelRows({ funnel }: AnalyticsReport): CsvValue[][] {
  return [
    [
      'table',
      'day',
      'campaign (utm)',
      'landing variant (vus)',
      'referring audience (raud)',
      ...stepColumns(),
    ],
    ['totals', '', '', '', '', ...stepCells(funnel.totals)],
    ...funnel.byCampaign.map((row) => [
      'by campaign',
      '',
      row.utm,
      row.vus,
      '',
      ...stepCells(row.counts),
    ]),
    ...funnel.byReferrer.map((row) => [
      'by referring audience',
      '',
      '',
      '',
      row.raud,
      ...stepCells(row.counts),
    ]),
    ...funnel.trend.map((row) => ['per day', row.day, '', '', '', ...stepCells(row.counts)]),
  ];
}

function audienceRows({ days, audiences }: AnalyticsReport): CsvValue[][] {
  const blank = (count: number) => Array.from({ length: count }, () => '');
  return [
    [
      'table',
      'audience id',
      'audience',
      'state',
      'start',
      'end',
      'joined',
      'left',
      'growth',
      'churn',
      'day',
      'subscribers',
      'votes',
      'votes in range',
      'suggestion',
      'count',
    ],
    ...audiences.rows.map((row) => [
      'audiences',
      row.id,
      row.title,
      row.state,
      row.start,
      row.end,
      row.joined,
      row.left,
      row.growth,
      ratioCell(row.churn),
      ...blank(6),
    ]),
    ...audiences.rows.flatMap((row) =>
      days.map((day, index) => [
        'subscribers per day',
        row.id,
        row.title,
        ...blank(7),
        day,
        row.series[index] ?? 0,
        ...blank(4),
      ]),
    ),
    ...audiences.niches.map((niche) => [
      'upcoming niches',
      niche.id,
      niche.title,
      ...blank(9),
      niche.votes,
      niche.votesInRange,
      '',
      '',
    ]),
    ...audiences.suggestions.map((suggestion) => [
      'suggestions',
      ...blank(13),
      suggestion.text,
      suggestion.count,
    ]),
  ];
}

function newsletterRows({ newsletters }: AnalyticsReport): CsvValue[][] {
  return [
    [
      'table',
      'issue id',
      'issue',
      'created at',
      'status',
      'sent',
      'failed',
      'unsubscribes',
      'clicks',
      'unique clicks',
      'story id',
      'story',
    ],
    ...newsletters.issues.flatMap((issue) => [
      [
        'issues',
        issue.id,
        issue.label,
        issue.createdAt,
        issue.status,
        issue.sent,
        issue.failed,
        issue.unsubscribes,
        issue.clicks,
        issue.uniqueClicks,
        '',
        '',
      ],
      ...issue.stories.map((story) => [
        'story clicks',
        issue.id,
        issue.label,
        '',
        '',
        '',
        '',
        '',
        story.clicks,
        story.uniqueClicks,
        story.articleId,
        story.title,
      ]),
    ]),
    ...newsletters.topStories.map((story) => [
      'stories clicked most',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      story.clicks,
      '',
      story.articleId,
      story.title,
    ]),
  ];
}

function readerRows({ readers }: AnalyticsReport): CsvValue[][] {
  return [
    ['day', 'active readers', 'likes', 'dislikes', 'clue changes'],
    ...readers.trend.map((row) => [row.day, row.active, row.likes, row.dislikes, row.clueChanges]),
  ];
}

const ROWS: Record<Section, (report: AnalyticsReport) => CsvValue[][]> = {
  funnel: funnelRows,
  audiences: audienceRows,
  newsletters: newsletterRows,
  readers: readerRows,
};

/** One section of the report as the CSV its download link gives. */
export const sectionCsv = (report: AnalyticsReport, section: Section) =>
  csvText(ROWS[section](report));
