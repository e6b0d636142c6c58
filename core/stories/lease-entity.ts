// StoryBuilderLease: who is grouping articles into stories now, until when, and which stories the
// last holder wrote. One pass holds it, so two imports never both start a story for one event.
import { defineEntity } from '#core/db';

export const StoryBuilderLeaseEntity = defineEntity({
  model: { entity: 'storyBuilderLease', version: '1', service: 'cluefeed' },
  attributes: {
    holder: { type: 'string' },
    until: { type: 'string' },
    /** The stories the last pass wrote: read at once by the next, whatever the index shows yet. */
    written: { type: 'list', items: { type: 'string' } },
  },
  indexes: {
    // The one lease: pk storyBuilder, sk lease
    lease: {
      pk: { field: 'pk', composite: [], template: 'storyBuilder', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'lease', casing: 'none' },
    },
  },
});
