// The claim that keeps one story stored once: a content fingerprint names its article.
import { defineEntity } from '#core/db';

export const ArticleFingerprintEntity = defineEntity({
  model: { entity: 'articleFingerprint', version: '1', service: 'cluefeed' },
  attributes: {
    fingerprint: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
  },
  indexes: {
    // The article stored with a content fingerprint: pk articleFingerprint#{fingerprint}
    byFingerprint: {
      pk: {
        field: 'pk',
        composite: ['fingerprint'],
        template: 'articleFingerprint#${fingerprint}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'articleFingerprint', casing: 'none' },
    },
  },
});
