// The report's shape, copied from core/analytics/report.ts until that lands on main.
export const FUNNEL_STEPS = [
  'visit',
  'subscribe',
  'confirm',
  'invited',
  'funnel_started',
  'onboarded',
  'feed_first_visit',
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export const SUBSCRIBER_STEPS = ['visit', 'subscribe', 'confirm'] as const;
export const READER_STEPS = ['invited', 'funnel_started', 'onboarded', 'feed_first_visit'] as const;
export type StepCounts = Record<FunnelStep, number>;
export type ReportInput = { from?: string; to?: string; utm?: string; vus?: string };
export type AnalyticsReport = {
  from: string;
  to: string;
  days: string[];
  filters: { utm: string | null; vus: string | null };
  updatedAt: string | null;
  choices: { utms: string[]; vuses: string[] };
  funnel: {
    totals: StepCounts;
    byCampaign: { utm: string; vus: string; counts: StepCounts }[];
    byReferrer: { raud: string; counts: StepCounts }[];
    trend: { day: string; counts: StepCounts }[];
  };
  audiences: {
    rows: {
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
    }[];
    niches: { id: string; title: string; votes: number; votesInRange: number }[];
    suggestions: { text: string; count: number }[];
  };
  newsletters: {
    issues: {
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
    }[];
    topStories: { articleId: string; title: string; clicks: number }[];
  };
  readers: {
    trend: { day: string; active: number; likes: number; dislikes: number; clueChanges: number }[];
  };
};
