// NewsletterIssue: one run of 'Send newsletters', its content window and its running counts. Its
// id is the process's, so a planner that runs again for the same process finds the same issue and
// the same window. The counts grow in the transaction that writes each Delivery, so they count
// every subscriber exactly once however often a chunk runs.
import { defineEntity } from '#core/db';

export const ISSUE_STATUSES = ['sending', 'done'] as const;

export const NewsletterIssueEntity = defineEntity({
  model: { entity: 'newsletterIssue', version: '1', service: 'cluefeed' },
  attributes: {
    /** The 'Send newsletters' process that sends it. */
    id: { type: 'string', required: true },
    frequency: { type: ['daily', 'weekly'] as const, required: true },
    /** The content window [from, to). */
    from: { type: 'string', required: true },
    to: { type: 'string', required: true },
    /** The active audiences of the frequency when it was planned. */
    audienceIds: { type: 'list', items: { type: 'string' }, required: true },
    status: { type: ISSUE_STATUSES, required: true },
    /** Distinct subscribers of those audiences, as planned (any status). */
    recipients: { type: 'number', default: 0 },
    /** Deliveries written: queued to the outbox, skipped, failed to render. */
    queued: { type: 'number', default: 0 },
    skipped: { type: 'number', default: 0 },
    failed: { type: 'number', default: 0 },
    createdAt: { type: 'string', required: true },
    doneAt: { type: 'string' },
  },
  indexes: {
    // One issue: pk newsletterIssue#{id}, sk issue
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'newsletterIssue#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'issue', casing: 'none' },
    },
  },
});
