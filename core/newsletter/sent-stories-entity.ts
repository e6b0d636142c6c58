// SentStories: the stories a subscriber's issues carried, and how many sources each had then, in
// one item per subscriber. Written in the transaction that queues an issue's e-mail, conditioned
// on the version its digest was composed from, so two issues composed at once never both carry a
// story as new: the second is composed again.
import { defineEntity } from '#core/db';

export const SentStoriesEntity = defineEntity({
  model: { entity: 'sentStories', version: '1', service: 'cluefeed' },
  attributes: {
    subscriberId: { type: 'string', required: true },
    stories: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          storyId: { type: 'string', required: true },
          /** The story's sources when it was sent: it comes again only with more. */
          sourceCount: { type: 'number', required: true },
          sentAt: { type: 'string', required: true },
        },
      },
    },
    /** +1 with every issue that carries a story. */
    version: { type: 'number', required: true },
  },
  indexes: {
    // A subscriber's sent stories: pk sentStories#{subscriberId}, sk sentStories
    bySubscriber: {
      pk: {
        field: 'pk',
        composite: ['subscriberId'],
        template: 'sentStories#${subscriberId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'sentStories', casing: 'none' },
    },
  },
});
