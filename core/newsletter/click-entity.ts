// Click: the first time one recipient followed one story's link in one issue. It exists only so
// the issue's `uniqueClicks` counts each (recipient, story) once: it is created with
// `attribute_not_exists` in the same transaction that adds to the issue's counts. It sits in the
// issue's partition beside the Deliveries and expires once no link that could count it still works.
import { defineEntity } from '#core/db';

export const ClickEntity = defineEntity({
  model: { entity: 'click', version: '1', service: 'cluefeed' },
  attributes: {
    issueId: { type: 'string', required: true },
    subscriberId: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
    /** The first click; later ones only add to the issue's `clicks`. */
    clickedAt: { type: 'string', required: true },
    /** TTL (epoch seconds): after every link that could count it has expired. */
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // One reader's click on one story: pk newsletterIssue#{issueId}, sk click#{subscriberId}#{articleId}
    byIssue: {
      pk: {
        field: 'pk',
        composite: ['issueId'],
        template: 'newsletterIssue#${issueId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['subscriberId', 'articleId'],
        template: 'click#${subscriberId}#${articleId}',
        casing: 'none',
      },
    },
  },
});
