// The campaign analytics report: what the page shows for a date range. The range's figures come
// from the daily rollups, kept between rollups (kept-report.ts); the audiences with their vote
// counters and the issues of the range with their counters are read with every view. It never
// reads raw events, so it costs the same at any traffic.
import * as v from 'valibot';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import { fn, VisibleError } from '#core/common';
import * as Newsletter from '#core/newsletter';
import { keptFigures, type KeptRange } from './kept-report';
import {
  rangeFigures,
  type AudienceFigures,
  type RangeFigures,
  type StepCounts,
} from './range-figures';
import { addDays, dayCount, dayOf, daysBetween, watermark } from './rollup';

export type { StepCounts };

export const SUBSCRIBER_STEPS = ['visit', 'subscribe', 'confirm'] as const;
export const READER_STEPS = ['invited', 'funnel_started', 'onboarded', 'feed_first_visit'] as const;

/** The longest range the page shows, and the one it shows when none is chosen. */
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;
/** Issues listed, newest first. */
export const MAX_ISSUES = 30;

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
  choices: RangeFigures['choices'];
  funnel: RangeFigures['funnel'];
  audiences: {
    rows: AudienceRow[];
    niches: { id: string; title: string; votes: number; votesInRange: number }[];
    suggestions: { text: string; count: number }[];
  };
  newsletters: {
    issues: IssueRow[];
    topStories: { articleId: string; title: string; clicks: number }[];
  };
  readers: RangeFigures['readers'];
};

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
  const [{ mark, figures }, audiences, issues] = await Promise.all([
    figuresOf({ from, to, filters }, days),
    Audiences.list(),
    Newsletter.issuesCreatedBetween(
      `${from}T00:00:00.000Z`,
      `${addDays(to, 1)}T00:00:00.000Z`,
      MAX_ISSUES,
    ),
  ]);

  // Audiences: the active ones and those the rollups carried a total for in the range.
  const known = new Map(audiences.map((audience) => [audience.id, audience]));
  const audienceIds = new Set([
    ...audiences.filter((audience) => audience.state === 'active').map((audience) => audience.id),
    ...figures.carried,
  ]);
  const noFigures: AudienceFigures = {
    start: 0,
    end: 0,
    joined: 0,
    left: 0,
    series: days.map(() => 0),
  };
  const rows = [...audienceIds].map((id): AudienceRow => {
    const audience = known.get(id);
    const { start, end, joined, left, series } = figures.audiences[id] ?? noFigures;
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
      series,
    };
  });
  rows.sort((a, b) => b.end - a.end || a.title.localeCompare(b.title));
  const niches = audiences
    .filter((audience) => audience.state === 'upcoming')
    .map((audience) => ({
      id: audience.id,
      title: audience.title,
      votes: audience.votes ?? 0,
      votesInRange: figures.votesInRange[audience.id] ?? 0,
    }))
    .sort(
      (a, b) =>
        b.votes - a.votes || b.votesInRange - a.votesInRange || a.title.localeCompare(b.title),
    );

  // Newsletters: each issue's own counters; the most clicked stories of the range from rollups.
  const issueStories = await Promise.all(issues.map((issue) => Newsletter.storyClicks(issue.id)));
  const titles = await articleTitles([
    ...figures.topStories.map((story) => story.articleId),
    ...issueStories.flat().map((story) => story.articleId),
  ]);
  const titleOf = (articleId: string) => titles.get(articleId) ?? '(article no longer stored)';

  return {
    from,
    to,
    days,
    filters,
    updatedAt: mark?.rolledAt ?? null,
    choices: figures.choices,
    funnel: figures.funnel,
    audiences: { rows, niches, suggestions: figures.suggestions },
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
      topStories: figures.topStories.map(({ articleId, clicks }) => ({
        articleId,
        title: titleOf(articleId),
        clicks,
      })),
    },
    readers: figures.readers,
  };
});

/** The watermark, and the range's figures kept at its revision (or computed). */
async function figuresOf(range: KeptRange, days: string[]) {
  const mark = await watermark();
  // Without a revision (no rollup has written since reports were kept) every view computes.
  const figures = await (mark?.revision === undefined
    ? rangeFigures(days, range.filters)
    : keptFigures(range, mark.revision, () =>
        rangeFigures(days, range.filters, { consistent: true }),
      ));
  return { mark, figures };
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
