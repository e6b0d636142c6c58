// Campaign analytics: daily rollups of the analytics events (a scheduled job) and the report the
// admin page shows from them.
export {
  countDay,
  countEvents,
  DAY_CAPS,
  DayRollupEntity,
  daysStored,
  FUNNEL_STEPS,
  OTHER,
  rollUpAnalytics,
  rollUpDay,
  STEP_OF,
  RollupWatermarkEntity,
  watermark,
  type DayCounts,
  type FunnelStep,
} from './rollup';
export {
  MAX_RANGE_DAYS,
  READER_STEPS,
  report,
  REPORT_MESSAGES,
  ReportInput,
  SUBSCRIBER_STEPS,
  type AnalyticsReport,
  type AudienceRow,
  type IssueRow,
  type StepCounts,
} from './report';
