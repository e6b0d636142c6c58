// The claim that keeps user names unique: a lower-cased user name names its system user.
import { defineEntity } from '#core/db';

export const SystemUserNameEntity = defineEntity({
  model: { entity: 'systemUserName', version: '1', service: 'cluefeed' },
  attributes: {
    userName: { type: 'string', required: true },
    systemUserId: { type: 'string', required: true },
  },
  indexes: {
    // The user of a (lower-cased) user name: pk systemUserName#{userName}
    byUserName: {
      pk: {
        field: 'pk',
        composite: ['userName'],
        template: 'systemUserName#${userName}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'systemUserName', casing: 'none' },
    },
  },
});
