// The claim that keeps one stream per feed URL.
import { defineEntity } from '#core/db';

export const StreamUrlEntity = defineEntity({
  model: { entity: 'streamUrl', version: '1', service: 'cluefeed' },
  attributes: {
    url: { type: 'string', required: true },
    streamId: { type: 'string', required: true },
  },
  indexes: {
    // The stream of a canonical feed URL: pk streamUrl#{url}
    byUrl: {
      pk: { field: 'pk', composite: ['url'], template: 'streamUrl#${url}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'streamUrl', casing: 'none' },
    },
  },
});
