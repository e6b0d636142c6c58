// ArticleImport (ADR 0065): each article once more, by the time it was imported, so the scoring
// planning reads only what came in after its oldest watermark (the `latest` index sorts by
// publication, and a story published long ago may be imported now). Written in the article's own
// transaction; small (ids and times only).
import { defineEntity } from '#core/db';

export const ArticleImportEntity = defineEntity({
  model: { entity: 'articleImport', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    importedAt: { type: 'string', required: true },
  },
  indexes: {
    // Every article by import time: pk articleImports, sk {importedAt}#{id}
    byImport: {
      pk: { field: 'pk', composite: [], template: 'articleImports', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['importedAt', 'id'],
        template: '${importedAt}#${id}',
        casing: 'none',
      },
    },
  },
});
