// When an issue is done: every planned subscriber has a Delivery and none of its e-mails waits in
// the outbox any more. The send's chunks ask after writing their Deliveries (an issue whose
// members were all skipped is done then), and the outbox asks after it settles an issue's e-mail
// and when a message comes again for one already settled (its worker may have died before it
// closed the issue), so a campaign says 'sending' until its last delivery settles.
import { isConditionFailure } from '#core/db';
import { NewsletterIssueEntity } from './issue-entity';

/** Marks the issue done once every recipient's Delivery has settled; a no-op before that. */
export async function closeIfSettled(issueId: string): Promise<void> {
  const { data: issue } = await NewsletterIssueEntity.get({ id: issueId }).go({ consistent: true });
  if (!issue || issue.status !== 'sending') return;
  const settled = (issue.sent ?? 0) + (issue.skipped ?? 0) + (issue.failed ?? 0);
  if ((issue.queued ?? 0) > 0 || settled < (issue.recipients ?? 0)) return;
  // Conditioned on what was read: an e-mail queued meanwhile (a planner run again) keeps it open.
  await NewsletterIssueEntity.patch({ id: issueId })
    .set({ status: 'done', doneAt: new Date().toISOString() })
    .where((attr, op) => `${op.eq(attr.status, 'sending')} AND ${op.eq(attr.queued, 0)}`)
    .go()
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}
