// NewsletterIssue: one issue of the newsletter, its content window, audiences and running counts.
// A scheduled issue (the daily or weekly schedule, or 'Send newsletters') has its period as id,
// e.g. `daily-2026-11-23`, so every run in that period finds the same issue and sends nobody a
// second copy; a campaign from the setup page has a ULID. The counts change in the transactions
// that write each Delivery and settle its e-mail, so each subscriber is counted exactly once.
import { defineEntity } from '#core/db';

export const ISSUE_STATUSES = ['scheduled', 'sending', 'done', 'cancelled'] as const;
export const ISSUE_ORIGINS = ['schedule', 'campaign'] as const;

/**
 * Why a subscriber got no e-mail of an issue, each counted on the issue beside `skipped` (in the
 * same write), so the campaign page can say why without reading the deliveries.
 */
export const SKIP_COUNTS = {
  'not confirmed': 'skippedNotConfirmed',
  unsubscribed: 'skippedUnsubscribed',
  cleaned: 'skippedCleaned',
  'no audiences': 'skippedNoAudiences',
  'no picks': 'skippedNoPicks',
  gone: 'skippedGone',
  'changed address': 'skippedChangedAddress',
} as const;
export type SkipReason = keyof typeof SKIP_COUNTS;

/** Adds one subscriber to an issue's counts under `name`, and a skip under its reason's too. */
export function countOne(counts: Record<string, number>, name: string, skipped?: SkipReason) {
  counts[name] = (counts[name] ?? 0) + 1;
  if (skipped) counts[SKIP_COUNTS[skipped]] = (counts[SKIP_COUNTS[skipped]] ?? 0) + 1;
}

export const NewsletterIssueEntity = defineEntity({
  model: { entity: 'newsletterIssue', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    /** 'schedule': a period's issue of every active audience; 'campaign': set up by an admin. */
    origin: { type: ISSUE_ORIGINS, default: 'schedule' },
    frequency: { type: ['daily', 'weekly'] as const, required: true },
    /** The content window [from, to). */
    from: { type: 'string', required: true },
    to: { type: 'string', required: true },
    /** The audiences whose picks it carries, and whose members receive it. */
    audienceIds: { type: 'list', items: { type: 'string' }, required: true },
    status: { type: ISSUE_STATUSES, required: true },
    /** A scheduled campaign starts sending then. */
    sendAt: { type: 'string' },
    /** The 'Send newsletters' process sending it (the latest, when several ran in its period). */
    processId: { type: 'string' },
    /** The admin who set up a campaign. */
    createdBy: { type: 'string' },
    /** Distinct members of its audiences, as last planned (any status). */
    recipients: { type: 'number', default: 0 },
    /** Deliveries whose e-mail waits in the outbox. */
    queued: { type: 'number', default: 0 },
    /** Deliveries the SMTP server accepted. */
    sent: { type: 'number', default: 0 },
    /** Deliveries that will not be sent: refused for good, or the digest could not be rendered. */
    failed: { type: 'number', default: 0 },
    /** Deliveries without an e-mail: not confirmed, unsubscribed, nothing picked for them. */
    skipped: { type: 'number', default: 0 },
    /** `skipped` by reason (SKIP_COUNTS); absent until a subscriber is skipped for it. */
    skippedNotConfirmed: { type: 'number' },
    skippedUnsubscribed: { type: 'number' },
    skippedCleaned: { type: 'number' },
    skippedNoAudiences: { type: 'number' },
    skippedNoPicks: { type: 'number' },
    skippedGone: { type: 'number' },
    skippedChangedAddress: { type: 'number' },
    /** Recipients who unsubscribed after this was the last issue they were sent. */
    unsubscribes: { type: 'number', default: 0 },
    /** Clicks through its tracked links, and distinct (recipient, story) pairs clicked. */
    clicks: { type: 'number', default: 0 },
    uniqueClicks: { type: 'number', default: 0 },
    createdAt: { type: 'string', required: true },
    startedAt: { type: 'string' },
    doneAt: { type: 'string' },
  },
  indexes: {
    // One issue: pk newsletterIssue#{id}, sk issue
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'newsletterIssue#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'issue', casing: 'none' },
    },
    // Issues newest first (campaign pages): gsi1pk newsletterIssues, gsi1sk {createdAt}#{id}
    recent: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'newsletterIssues', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});
