// Pick: an article chosen for an audience's content card, with the score that earned it. Kept by
// audience in pick order, so the newsletter reads an audience's picks of a time window in one Query.
import { defineEntity } from '#core/db';
import { RELEVANCE_LABELS } from '#core/ai';

export const PickEntity = defineEntity({
  model: { entity: 'pick', version: '1', service: 'cluefeed' },
  attributes: {
    audienceId: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
    /** The picked post readers see (a post with a link to the article). */
    postId: { type: 'string', required: true },
    contentCardId: { type: 'string', required: true },
    /** The run that picked it (a process id). */
    processId: { type: 'string', required: true },
    score: { type: 'number', required: true },
    label: { type: RELEVANCE_LABELS, required: true },
    reason: { type: 'string', required: true },
    relevantClues: { type: 'list', items: { type: 'string' }, default: () => [] },
    /** The article's publication time. */
    publishedAt: { type: 'string', required: true },
    pickedAt: { type: 'string', required: true },
    /** An editor may archive a pick; the newsletter leaves archived picks out. */
    isArchived: { type: 'boolean', required: true, default: false },
    /** Whether the pick goes into the audience's feed and newsletter. */
    isPickedForFeed: { type: 'boolean', required: true, default: true },
  },
  indexes: {
    // An audience's picks in pick order: pk audiencePicks#{audienceId}, sk {pickedAt}#{articleId}
    byAudience: {
      pk: {
        field: 'pk',
        composite: ['audienceId'],
        template: 'audiencePicks#${audienceId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['pickedAt', 'articleId'],
        template: '${pickedAt}#${articleId}',
        casing: 'none',
      },
    },
  },
});
