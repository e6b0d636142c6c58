// The figures of a range that come from the daily rollups alone: the funnel, the audiences' totals,
// joins and leaves, votes, suggestions, the most clicked stories and the readers' activity. They
// change only when a rollup writes, so they can be kept between rollups (kept-report.ts); what
// changes at any moment (audiences' titles and votes, issues' counters, article titles) is read
// by the report on every view.
import {
  dayBefore,
  daysStored,
  emptyDayCounts,
  FUNNEL_STEPS,
  SEPARATOR,
  type DayCounts,
  type FunnelStep,
  type ReaderCounts,
} from './rollup';

export type StepCounts = Record<FunnelStep, number>;

/** Stories in the most-clicked list. */
export const TOP_STORIES = 10;
/** Suggested audiences listed, most suggested first. */
export const TOP_SUGGESTIONS = 50;

export type Filters = { utm: string | null; vus: string | null };

/** An audience's subscribers over the range, as the rollups carry them. */
export type AudienceFigures = {
  start: number;
  end: number;
  joined: number;
  left: number;
  series: number[];
};

export type RangeFigures = {
  choices: { utms: string[]; vuses: string[] };
  funnel: {
    totals: StepCounts;
    byCampaign: { utm: string; vus: string; counts: StepCounts }[];
    byReferrer: { raud: string; counts: StepCounts }[];
    trend: { day: string; counts: StepCounts }[];
  };
  /** Audiences that had a total on a day of the range: each has a row, active or not. */
  carried: string[];
  /** Every audience any figure of the range names (an audience not named has only zeros). */
  audiences: Record<string, AudienceFigures>;
  /** Upcoming niche id -> votes given minus withdrawn in the range. */
  votesInRange: Record<string, number>;
  suggestions: { text: string; count: number }[];
  topStories: { articleId: string; clicks: number }[];
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

/**
 * Reads the rollups of `days` (one Query, and one for the day before) and sums them. `consistent`
 * when the figures are to be kept: a kept report must not miss a day the rollup just wrote.
 */
export async function rangeFigures(
  days: string[],
  filters: Filters,
  { consistent = false } = {},
): Promise<RangeFigures> {
  const [stored, before] = await Promise.all([
    daysStored(days[0]!, days.at(-1)!, { consistent }),
    dayBefore(days[0]!, { consistent }),
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
  let carriedTotals = startTotals;
  const series = days.map((day) => (carriedTotals = items.get(day)?.subscribers ?? carriedTotals));
  const carried = [...new Set(series.flatMap((totalsOfDay) => Object.keys(totalsOfDay)))];
  const joined = new Map(summed(days.map((day) => countsOf(day).joined)));
  const left = new Map(summed(days.map((day) => countsOf(day).left)));
  const named = new Set([
    ...Object.keys(startTotals),
    ...carried,
    ...joined.keys(),
    ...left.keys(),
  ]);
  const audiences = Object.fromEntries(
    [...named].map((id): [string, AudienceFigures] => {
      const start = startTotals[id] ?? 0;
      return [
        id,
        {
          start,
          end: series.at(-1)?.[id] ?? start,
          joined: joined.get(id) ?? 0,
          left: left.get(id) ?? 0,
          series: series.map((totalsOfDay) => totalsOfDay[id] ?? 0),
        },
      ];
    }),
  );
  const suggestions = summed(days.map((day) => countsOf(day).suggestions))
    .map(([text, count]) => ({ key: text, text, count }))
    .sort(byCount)
    .slice(0, TOP_SUGGESTIONS)
    .map(({ text, count }) => ({ text, count }));

  // The most clicked stories of the range; their titles are read with each view.
  const byArticle = new Map<string, number>();
  for (const [key, n] of summed(days.map((day) => countsOf(day).clicks))) {
    const articleId = key.split(SEPARATOR)[1];
    if (articleId) byArticle.set(articleId, (byArticle.get(articleId) ?? 0) + n);
  }
  const topStories = [...byArticle]
    .map(([articleId, count]) => ({ key: articleId, articleId, count }))
    .sort(byCount)
    .slice(0, TOP_STORIES)
    .map(({ articleId, count }) => ({ articleId, clicks: count }));

  return {
    choices: { utms: [...utms].sort(), vuses: [...vuses].sort() },
    funnel: {
      totals,
      byCampaign: busiest(campaigns.values()),
      byReferrer: busiest(referrers.values()),
      trend,
    },
    carried,
    audiences,
    votesInRange: Object.fromEntries(summed(days.map((day) => countsOf(day).votes))),
    suggestions,
    topStories,
    readers: { trend: days.map((day) => ({ day, ...countsOf(day).readers })) },
  };
}

/** Counts of the same keys over several days, added up. */
function summed(records: Record<string, number>[]): [string, number][] {
  const total = new Map<string, number>();
  for (const record of records)
    for (const [key, n] of Object.entries(record)) total.set(key, (total.get(key) ?? 0) + n);
  return [...total];
}
