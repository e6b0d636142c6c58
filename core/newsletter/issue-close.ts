// When an issue is done: every planned subscriber has a Delivery and none of its e-mails waits in
// the outbox any more. The send's chunks ask after writing their Deliveries (an issue whose
// members were all skipped is done then), and the outbox asks after it settles an issue's e-mail
// and when a message comes again for one already settled (its worker may have died before it
// closed the issue), so a campaign says 'sending' until its last delivery settles.
import { isConditionFailure } from '#core/db';
import { NewsletterIssueEntity } from './issue-entity';

/** Marks the issue done once every recipient's Delivery has settled; false before that. */
export async function closeIfSettled(issueId: string): Promise<boolean> {
  const { data: issue } = await NewsletterIssueEntity.get({ id: issueId }).go({ consistent: true });
  if (!issue || issue.status !== 'sending') return false;
  const settled = (issue.sent ?? 0) + (issue.skipped ?? 0) + (issue.failed ?? 0);
  if ((issue.queued ?? 0) > 0 || settled < (issue.recipients ?? 0)) return false;
  // Conditioned on what was read: an e-mail queued meanwhile (a planner run again) keeps it open.
  return NewsletterIssueEntity.patch({ id: issueId })
    .set({ status: 'done', doneAt: new Date().toISOString() })
    .where((attr, op) => `${op.eq(attr.status, 'sending')} AND ${op.eq(attr.queued, 0)}`)
    .go()
    .then(
      () => true,
      (error: unknown) => {
        if (!isConditionFailure(error)) throw error;
        return false;
      },
    );
}

/** The newest issues the recovery schedule looks at: a send under way is among them. */
export const RECENT_ISSUES = 20;

/**
 * Closes the newest issues still 'sending' whose deliveries have all settled: a worker that died
 * between settling an issue's last e-mail and closing the issue leaves it so. Run by the
 * recover-jobs schedule; one Query of gsi1 `newsletterIssues`, newest first, then a read of each
 * issue still sending. Answers how many it closed.
 */
export async function closeSettledIssues(): Promise<number> {
  const { data } = await NewsletterIssueEntity.query
    .recent({})
    .go({ order: 'desc', limit: RECENT_ISSUES, attributes: ['id', 'status'] });
  let closed = 0;
  for (const { id, status } of data)
    if (status === 'sending' && (await closeIfSettled(id))) closed += 1;
  return closed;
}
