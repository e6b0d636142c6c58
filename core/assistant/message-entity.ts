// ChatMessage: one message of an assistant thread (spec: id, role, message, template, payload,
// doNotSkip), in its thread's partition, ordered by its ULID.
import { defineEntity } from '#core/db';

export const MESSAGE_TEMPLATES = ['clues review', 'article feedback'] as const;

const ClueItems = {
  type: 'list',
  items: { type: 'map', properties: { clue: { type: 'string', required: true } } },
} as const;
const MuteItems = {
  type: 'list',
  items: { type: 'map', properties: { mute: { type: 'string', required: true } } },
} as const;

export const ChatMessageEntity = defineEntity({
  model: { entity: 'chatMessage', version: '1', service: 'cluefeed' },
  attributes: {
    threadId: { type: 'string', required: true },
    id: { type: 'string', required: true },
    role: { type: ['user', 'assistant'] as const, required: true },
    message: { type: 'string', required: true },
    template: { type: MESSAGE_TEMPLATES },
    /** A clues review's changes, each clue { clue } and each muted topic { mute }. */
    payload: {
      type: 'map',
      properties: {
        cluesToBeAdded: ClueItems,
        cluesToBeRemoved: ClueItems,
        cluesToRemain: ClueItems,
        mutesToBeAdded: MuteItems,
        mutesToBeRemoved: MuteItems,
      },
    },
    /** Shown even when its text looks like hidden JSON (a templated message is rendered by its template). */
    doNotSkip: { type: 'boolean' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // A thread's messages in order: pk assistantThread#{threadId}, sk message#{id}
    byThread: {
      pk: {
        field: 'pk',
        composite: ['threadId'],
        template: 'assistantThread#${threadId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['id'], template: 'message#${id}', casing: 'none' },
    },
  },
});
