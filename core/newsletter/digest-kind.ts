// What the outbox does with a 'digest' e-mail, registered when core/newsletter loads. An issue's
// e-mail is cancelled as its subscriber's e-mails are; its last attempt settles its Delivery and
// the issue's counts in the outbox's own transaction, so each is counted once, then marks the
// issue the subscriber was last sent and closes the issue if it was its last e-mail on the way.
import { isConditionFailure } from '#core/db';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { DeliveryEntity } from './delivery-entity';
import { closeIfSettled } from './issue-close';
import { NewsletterIssueEntity, SKIP_COUNTS } from './issue-entity';

const DELIVERY_OF = { sent: 'sent', failed: 'failed', cancelled: 'skipped' } as const;

/** Marks the issue the subscriber was last sent, so their unsubscribe counts against it. */
async function lastIssueSent(subscriberId: string, issueId: string, sentAt: string) {
  await Subscribers.SubscriberEntity.patch({ id: subscriberId })
    .set({ lastIssueId: issueId, lastIssueSentAt: sentAt })
    .where(
      (attr, op) =>
        `${op.notExists(attr.lastIssueSentAt)} OR ${op.lt(attr.lastIssueSentAt, sentAt)}`,
    )
    .go()
    .catch((error: unknown) => {
      // Gone, or a later issue is already marked: nothing to do.
      if (!isConditionFailure(error)) throw error;
    });
}

Outbox.registerKind<Subscribers.NotWanted>('digest', {
  unwanted: Subscribers.noLongerWanted,
  // A preview or test send (no issue, no subscriber) settles nothing but itself.
  settling({ issueId, subscriberId }, ending) {
    if (!issueId || !subscriberId) return [];
    const status = DELIVERY_OF[ending.status];
    return Outbox.writesWith(
      { delivery: DeliveryEntity, issue: NewsletterIssueEntity },
      ({ delivery, issue }) => [
        delivery
          .patch({ issueId, subscriberId })
          .set({
            status,
            ...(status === 'sent'
              ? { smtpMessageId: ending.smtpMessageId, sentAt: ending.sentAt }
              : { reason: ending.lastError }),
          })
          .commit(),
        issue
          .patch({ id: issueId })
          .add({
            queued: -1,
            [status]: 1,
            ...(ending.reason && { [SKIP_COUNTS[ending.reason]]: 1 }),
          })
          .commit(),
      ],
    );
  },
  async settled({ issueId, subscriberId }, ending) {
    if (!issueId || !subscriberId) return;
    if (ending?.status === 'sent') await lastIssueSent(subscriberId, issueId, ending.sentAt!);
    await closeIfSettled(issueId);
  },
});
