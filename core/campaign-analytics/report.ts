// The campaign analytics report: what the page shows for a date range, read from the daily rollups
// (one item per day shown), the upcoming niches' vote counters, and the issues of the range with
// their counters. It never reads raw events, so it costs the same at any traffic.
import * as v from 'valibot';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import { fn, VisibleError } from '#core/common';
import * as Newsletter from '#core/newsletter';
import {
  addDays,
  dayBefore,
  emptyDayCounts,
  dayCount,
  dayOf,
  daysBetween,
  daysStored,
  FUNNEL_STEPS,
  SEPARATOR,
  watermark,
  type DayCounts,
  type FunnelStep,
  type ReaderCounts,
} from './rollup';

export const SUBSCRIBER_STEPS = ['visit', 'subscribe', 'confirm'] as const;
export const READER_STEPS = ['invited', 'funnel_started', 'onboarded', 'feed_first_visit'] as const;
export type StepCounts = Record<FunnelStep, number>;

/** The longest range the page shows, and the one it shows when none is chosen. */
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;
/** Issues listed, newest first, and stories in the most-clicked list. */
export const MAX_ISSUES = 30;
export const TOP_STORIES = 10;

export const REPORT_MESSAGES = {
  badDate: 'Please enter dates as YYYY-MM-DD',
  reversed: 'The From date must not be after the To date',
  tooLong: `Please choose at most ${MAX_RANGE_DAYS} days`,
  badFilter: 'Please choose a campaign and a landing variant from the lists',
} as const;

/**
 * A calendar day that exists and has a next day in the same form (not 9999-12-31, whose next day
 * the issues' range could not name). Whole on its own: valibot runs a pipe's check after its regex
 * failed.
 */
function isDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && dayOf(time) === day && /^\d{4}-/.test(addDays(day, 1));
}

const Day = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, REPORT_MESSAGES.badDate),
  v.check(isDay, REPORT_MESSAGES.badDate),
);

/** An empty value is no filter (what a form's 'All' sends). */
const Filter = v.optional(
  v.pipe(
    v.string(),
    v.maxLength(100, REPORT_MESSAGES.badFilter),
    v.regex(/^[\w.~()-]*$/, REPORT_MESSAGES.badFilter),
  ),
);

export const ReportInput = v.object({
  from: v.optional(v.union([v.literal(''), Day], REPORT_MESSAGES.badDate)),
  to: v.optional(v.union([v.literal(''), Day], REPORT_MESSAGES.badDate)),
  utm: Filter,
  /** '' is the default landing; absent is every variant. */
  vus: v.optional(v.picklist(['', 'sp', 'ip', 'all'], REPORT_MESSAGES.badFilter)),
});
export type ReportInput = v.InferInput<typeof ReportInput>;

export type AudienceRow = {
  id: string;
  title: string;
  state: 'active' | 'upcoming' | 'gone';
  start: number;
  end: number;
  joined: number;
  left: number;
  growth: number;
  churn: number | null;
  series: number[];
};

export type IssueRow = {
  id: string;
  label: string;
  createdAt: string;
  status: string;
  sent: number;
  failed: number;
  unsubscribes: number;
  clicks: number;
  uniqueClicks: number;
  stories: { articleId: string; title: string; clicks: number; uniqueClicks: number }[];
};

export type AnalyticsReport = {
  from: string;
  to: string;
  days: string[];
  filters: { utm: string | null; vus: string | null };
  /** When the figures were last rolled up; null before the first rollup. */
  updatedAt: string | null;
  choices: { utms: string[]; vuses: string[] };
  funnel: {
    totals: StepCounts;
    byCampaign: { utm: string; vus: string; counts: StepCounts }[];
    byReferrer: { raud: string; counts: StepCounts }[];
    trend: { day: string; counts: StepCounts }[];
  };
  audiences: {
    rows: AudienceRow[];
    niches: { id: string; title: string; votes: number; votesInRange: number }[];
    suggestions: { text: string; count: number }[];
  };
  newsletters: {
    issues: IssueRow[];
    topStories: { articleId: string; title: string; clicks: number }[];
  };
  readers: { trend: ({ day: string } & ReaderCounts)[] };
};

/** What a day without a stored item counted. */
const noEvents = emptyDayCounts();

const zeroSteps = (): StepCounts =>
  Object.fromEntries(FUNNEL_STEPS.map((step) => [step, 0])) as StepCounts;

const sum = (values: Iterable<number>) => [...values].reduce((total, n) => total + n, 0);

function byCount<T extends { count: number }>(a: T & { key: string }, b: T & { key: string }) {
  return b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export const report = fn(ReportInput, async (input): Promise<AnalyticsReport> => {
  const today = dayOf(Date.now());
  const to = input.to || today;
  const from = input.from || addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) throw new VisibleError('analytics.range', REPORT_MESSAGES.reversed, 400);
  if (dayCount(from, to) > MAX_RANGE_DAYS)
    throw new VisibleError('analytics.range', REPORT_MESSAGES.tooLong, 400);
  const days = daysBetween(from, to);
  const filters = {
    utm: input.utm ? input.utm : null,
    vus: input.vus === undefined || input.vus === 'all' ? null : input.vus,
  };
  const [stored, before, mark, audiences, issues] = await Promise.all([
    daysStored(from, to),
    dayBefore(from),
    watermark(),
    Audiences.list(),
    Newsletter.issuesCreatedBetween(
      `${from}T00:00:00.000Z`,
      `${addDays(to, 1)}T00:00:00.000Z`,
      MAX_ISSUES,
    ),
  ]);
  const items = new Map(stored.map((item) => [item.day, item]));
  const countsOf = (day: string): DayCounts => items.get(day)?.counts ?? noEvents;

  // Funnel: the filters narrow the campaign rows; referrers are counted across campaigns.
  const campaigns = new Map<string, { utm: string; vus: string; counts: StepCounts }>();
  const referrers = new Map<string, { raud: string; counts: StepCounts }>();
  const utms = new Set<string>();
  const vuses = new Set<string>();
  const totals = zeroSteps();
  const trend = days.map((day) => {
    const counts = zeroSteps();
    for (const [key, n] of Object.entries(countsOf(day).campaigns)) {
      const [step, utm = '', vus = ''] = key.split(SEPARATOR) as [FunnelStep, string, string];
      if (utm) utms.add(utm);
      vuses.add(vus);
      if (filters.utm !== null && utm !== filters.utm) continue;
      if (filters.vus !== null && vus !== filters.vus) continue;
      const row = campaigns.get(`${utm}${SEPARATOR}${vus}`) ?? { utm, vus, counts: zeroSteps() };
      row.counts[step] += n;
      campaigns.set(`${utm}${SEPARATOR}${vus}`, row);
      counts[step] += n;
      totals[step] += n;
    }
    for (const [key, n] of Object.entries(countsOf(day).referrers)) {
      const [step, raud = ''] = key.split(SEPARATOR) as [FunnelStep, string];
      const row = referrers.get(raud) ?? { raud, counts: zeroSteps() };
      row.counts[step] += n;
      referrers.set(raud, row);
    }
    return { day, counts };
  });
  const busiest = <T extends { counts: StepCounts }>(rows: Iterable<T>) =>
    [...rows].sort((a, b) => sum(Object.values(b.counts)) - sum(Object.values(a.counts)));

  // Audiences: totals carried by the rollup, joins and leaves summed over the range.
  const startTotals = before?.subscribers ?? {};
  let carried = startTotals;
  const series = days.map((day) => (carried = items.get(day)?.subscribers ?? carried));
  const known = new Map(audiences.map((audience) => [audience.id, audience]));
  const audienceIds = new Set([
    ...audiences.filter((audience) => audience.state === 'active').map((audience) => audience.id),
    ...series.flatMap((totalsOfDay) => Object.keys(totalsOfDay)),
  ]);
  const rangeSum = (pick: (counts: DayCounts) => Record<string, number>, id: string) =>
    sum(days.map((day) => pick(countsOf(day))[id] ?? 0));
  const rows = [...audienceIds].map((id): AudienceRow => {
    const audience = known.get(id);
    const start = startTotals[id] ?? 0;
    const end = series.at(-1)?.[id] ?? start;
    const joined = rangeSum((counts) => counts.joined, id);
    const left = rangeSum((counts) => counts.left, id);
    return {
      id,
      title: audience?.title ?? '(deleted audience)',
      state: audience?.state ?? 'gone',
      start,
      end,
      joined,
      left,
      growth: end - start,
      churn: start + joined === 0 ? null : left / (start + joined),
      series: series.map((totalsOfDay) => totalsOfDay[id] ?? 0),
    };
  });
  rows.sort((a, b) => b.end - a.end || a.title.localeCompare(b.title));
  const niches = audiences
    .filter((audience) => audience.state === 'upcoming')
    .map((audience) => ({
      id: audience.id,
      title: audience.title,
      votes: audience.votes ?? 0,
      votesInRange: rangeSum((counts) => counts.votes, audience.id),
    }))
    .sort(
      (a, b) =>
        b.votes - a.votes || b.votesInRange - a.votesInRange || a.title.localeCompare(b.title),
    );
  const suggestions = summed(days.map((day) => countsOf(day).suggestions))
    .map(([text, count]) => ({ key: text, text, count }))
    .sort(byCount)
    .slice(0, 50)
    .map(({ text, count }) => ({ text, count }));

  // Newsletters: each issue's own counters; the most clicked stories of the range from rollups.
  const storyClicks = summed(days.map((day) => countsOf(day).clicks));
  const byArticle = new Map<string, number>();
  for (const [key, n] of storyClicks) {
    const articleId = key.split(SEPARATOR)[1];
    if (articleId) byArticle.set(articleId, (byArticle.get(articleId) ?? 0) + n);
  }
  const top = [...byArticle]
    .map(([articleId, count]) => ({ key: articleId, articleId, count }))
    .sort(byCount)
    .slice(0, TOP_STORIES);
  const issueStories = await Promise.all(issues.map((issue) => Newsletter.storyClicks(issue.id)));
  const titles = await articleTitles([
    ...top.map((story) => story.articleId),
    ...issueStories.flat().map((story) => story.articleId),
  ]);
  const titleOf = (articleId: string) => titles.get(articleId) ?? '(article no longer stored)';

  return {
    from,
    to,
    days,
    filters,
    updatedAt: mark?.rolledAt ?? null,
    choices: { utms: [...utms].sort(), vuses: [...vuses].sort() },
    funnel: {
      totals,
      byCampaign: busiest(campaigns.values()),
      byReferrer: busiest(referrers.values()),
      trend,
    },
    audiences: { rows, niches, suggestions },
    newsletters: {
      issues: issues.map((issue, index) => ({
        id: issue.id,
        label: issueLabel(issue),
        createdAt: issue.createdAt,
        status: issue.status,
        sent: issue.sent ?? 0,
        failed: issue.failed ?? 0,
        unsubscribes: issue.unsubscribes ?? 0,
        clicks: issue.clicks ?? 0,
        uniqueClicks: issue.uniqueClicks ?? 0,
        stories: issueStories[index]!.map((story) => ({
          articleId: story.articleId,
          title: titleOf(story.articleId),
          clicks: story.clicks ?? 0,
          uniqueClicks: story.uniqueClicks ?? 0,
        })).sort((a, b) => b.clicks - a.clicks || a.title.localeCompare(b.title)),
      })),
      topStories: top.map(({ articleId, count }) => ({
        articleId,
        title: titleOf(articleId),
        clicks: count,
      })),
    },
    readers: {
      trend: days.map((day) => ({
        day,
        ...countsOf(day).readers,
      })),
    },
  };
});

/** Counts of the same keys over several days, added up. */
function summed(records: Record<string, number>[]): [string, number][] {
  const total = new Map<string, number>();
  for (const record of records)
    for (const [key, n] of Object.entries(record)) total.set(key, (total.get(key) ?? 0) + n);
  return [...total];
}

async function articleTitles(ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const articles = unique.length ? await Articles.byIds(unique) : [];
  return new Map(articles.map((article) => [article.id, article.title]));
}

/** 'Daily issue, 2026-11-23' or 'Campaign of 2026-11-23 08:00 UTC'. */
function issueLabel(issue: Newsletter.NewsletterIssue): string {
  const day = issue.createdAt.slice(0, 10);
  if (issue.origin === 'campaign') return `Campaign of ${day} ${issue.createdAt.slice(11, 16)} UTC`;
  return `${issue.frequency === 'weekly' ? 'Weekly' : 'Daily'} issue, ${day}`;
}
