// How the analytics page words and divides the report's figures. A ratio divides one step's count
// by the previous step's count in the same row: counts of events, not of people, since no visitor
// is followed from one step to the next.
import type { FunnelStep, StepCounts } from '#core/campaign-analytics';

export const STEP_LABELS: Record<FunnelStep, string> = {
  visit: 'Visits',
  subscribe: 'Subscribes',
  confirm: 'Confirms',
  invited: 'Invited',
  funnel_started: 'Funnel started',
  onboarded: 'Onboarded',
  feed_first_visit: 'First feed visits',
};

/** The step's count divided by the previous step's; null for the first step or a previous 0. */
export function stepRatio(
  counts: StepCounts,
  steps: readonly FunnelStep[],
  index: number,
): number | null {
  const previous = index > 0 ? counts[steps[index - 1]!] : 0;
  return previous === 0 ? null : counts[steps[index]!] / previous;
}

/** A ratio as the page shows it: '62.5%', or '—' when it cannot be computed. */
export const percentText = (ratio: number | null) =>
  ratio === null ? '—' : `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;

/** A ratio as a CSV cell: four decimals, empty when it cannot be computed. */
export const ratioCell = (ratio: number | null) =>
  ratio === null ? '' : Math.round(ratio * 10_000) / 10_000;

/** The heading of a ratio column: 'Subscribes ÷ Visits'. */
export const ratioLabel = (steps: readonly FunnelStep[], index: number) =>
  `${STEP_LABELS[steps[index]!]} ÷ ${STEP_LABELS[steps[index - 1]!]}`;

export const campaignName = (utm: string) => (utm === '' ? 'No campaign' : utm);
export const variantName = (vus: string) => (vus === '' ? 'Default landing' : vus);
export const referrerName = (raud: string) => (raud === '' ? 'No referring audience' : raud);

/** Whether a day ('YYYY-MM-DD', UTC) is still going on: its figures are partial. */
export const isPartialDay = (day: string | undefined, now = new Date()) =>
  day === now.toISOString().slice(0, 10);
