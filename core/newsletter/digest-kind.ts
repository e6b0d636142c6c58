// What the outbox does with a 'digest' e-mail, registered when core/newsletter loads. An issue's
// e-mail is cancelled as its subscriber's e-mails are; its last attempt settles its Delivery in
// the outbox's own transaction, where the issue's counts are written once for every e-mail that
// ended with it (a send's e-mails go out together), then the issue closes if they were its last.
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { DeliveryEntity } from './delivery-entity';
import { closeIfSettled } from './issue-close';
import { countOne, NewsletterIssueEntity } from './issue-entity';

const DELIVERY_OF = { sent: 'sent', failed: 'failed', cancelled: 'skipped' } as const;

/** How many of `ended` each issue counts, by its counts' names. */
function countsByIssue(ended: Outbox.Ended<Subscribers.NotWanted>[]) {
  const issues = new Map<string, Record<string, number>>();
  for (const { message, ending } of ended) {
    if (!message.issueId || !message.subscriberId) continue;
    const counts = issues.get(message.issueId) ?? { queued: 0 };
    counts.queued! -= 1;
    countOne(counts, DELIVERY_OF[ending.status], ending.reason);
    issues.set(message.issueId, counts);
  }
  return issues;
}

Outbox.registerKind<Subscribers.NotWanted>('digest', {
  unwanted: Subscribers.noLongerWanted,
  // A preview or test send (no issue, no subscriber) settles nothing but itself.
  settling({ issueId, subscriberId }, ending) {
    if (!issueId || !subscriberId) return [];
    const status = DELIVERY_OF[ending.status];
    return Outbox.writesWith({ delivery: DeliveryEntity }, ({ delivery }) => [
      delivery
        .patch({ issueId, subscriberId })
        .set({
          status,
          ...(status === 'sent'
            ? { smtpMessageId: ending.smtpMessageId, sentAt: ending.sentAt }
            : { reason: ending.lastError }),
        })
        .commit(),
    ]);
  },
  counting(ended) {
    return Outbox.writesWith({ issue: NewsletterIssueEntity }, ({ issue }) =>
      [...countsByIssue(ended)].map(([id, counts]) => issue.patch({ id }).add(counts).commit()),
    );
  },
  async settled(messages) {
    const issues = new Set(messages.flatMap(({ message }) => message.issueId ?? []));
    for (const issueId of issues) await closeIfSettled(issueId);
  },
});
