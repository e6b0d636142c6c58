// StoryClicks: one story's clicks in one issue, beside the issue's own counts in its partition.
// Changed in the same transaction as the issue's `clicks` and `uniqueClicks`, so an issue's story
// counters always sum to its counts; the campaign figures read them with one Query.
import { defineEntity } from '#core/db';

export const StoryClicksEntity = defineEntity({
  model: { entity: 'storyClicks', version: '1', service: 'cluefeed' },
  attributes: {
    issueId: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
    /** Every click on the story's link, and the distinct recipients who clicked it. */
    clicks: { type: 'number', default: 0 },
    uniqueClicks: { type: 'number', default: 0 },
  },
  indexes: {
    // An issue's story counters: pk newsletterIssue#{issueId}, sk storyClicks#{articleId}
    byIssue: {
      pk: {
        field: 'pk',
        composite: ['issueId'],
        template: 'newsletterIssue#${issueId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['articleId'],
        template: 'storyClicks#${articleId}',
        casing: 'none',
      },
    },
  },
});
