// System users (admins, role 1) with unique user names, and their sign-in sessions.
import { defineEntity } from '#core/db';

export const ROLES = { ADMIN: 1, USER: 2 } as const;

export const SystemUserEntity = defineEntity({
  model: { entity: 'systemUser', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    userName: { type: 'string', required: true },
    name: { type: 'string', required: true },
    passwordHash: { type: 'string', required: true },
    role: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One system user: pk systemUser#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'systemUser#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'systemUser', casing: 'none' },
    },
    // Every system user by user name: gsi1pk systemUsers, gsi1sk {userName}
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'systemUsers', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['userName'], template: '${userName}', casing: 'none' },
    },
  },
});
