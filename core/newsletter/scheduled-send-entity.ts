// ScheduledSend: a campaign waiting for its time. The every-minute schedule reads the due ones
// (sendAt <= now, oldest first) and starts each campaign's send; it is deleted once started.
import { defineEntity } from '#core/db';

export const ScheduledSendEntity = defineEntity({
  model: { entity: 'scheduledSend', version: '1', service: 'cluefeed' },
  attributes: {
    issueId: { type: 'string', required: true },
    sendAt: { type: 'string', required: true },
  },
  indexes: {
    // Campaigns by start time: pk scheduledSends, sk {sendAt}#{issueId}
    bySendAt: {
      pk: { field: 'pk', composite: [], template: 'scheduledSends', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['sendAt', 'issueId'],
        template: '${sendAt}#${issueId}',
        casing: 'none',
      },
    },
  },
});
