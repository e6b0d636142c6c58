// AssistantThread: one conversation of a user with the assistant (onboarding, changing clues, or
// feedback on an article). Its messages share its partition; messageCount bounds them and orders
// concurrent writes (every message write is conditioned on the count it read). Feedback on an
// article keeps a snapshot of the story it is about.
import { defineEntity } from '#core/db';

export const THREAD_CATEGORIES = [
  'onboarding',
  'change_clues',
  // Spelled as the spec spells them.
  'negative_feeback_on_article',
  'positive_feeback_on_article',
] as const;

export const AssistantThreadEntity = defineEntity({
  model: { entity: 'assistantThread', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    category: { type: THREAD_CATEGORIES, required: true },
    articleId: { type: 'string' },
    /**
     * Feedback on an article: the story as it was when the thread began (title, source, URL,
     * summary bounded by STORY_LIMITS), so the thread never depends on the article being stored.
     */
    story: {
      type: 'map',
      properties: {
        title: { type: 'string', required: true },
        source: { type: 'string', required: true },
        canonicalUrl: { type: 'string', required: true },
        summary: { type: 'string', required: true },
      },
    },
    /** The user's clues when the thread began: the change-clues prompt and the review use them. */
    currentClues: { type: 'list', items: { type: 'string' }, default: () => [] },
    messageCount: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One thread: pk assistantThread#{id}, sk thread
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'assistantThread#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'thread', casing: 'none' },
    },
  },
});
