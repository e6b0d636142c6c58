// AssistantThread: one conversation of a user with the assistant (onboarding, changing clues, or
// feedback on an article). Its messages share its partition; messageCount bounds them and orders
// concurrent writes (every message write is conditioned on the count it read).
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
