// System users (admins, role 1) with unique user names, and their sign-in sessions.
import { Entity } from 'electrodb';
import { entityConfig } from '#core/db';

export const ROLES = { ADMIN: 1, USER: 2 } as const;

export const SystemUserEntity = new Entity(
  {
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
  },
  entityConfig(),
);

export const SystemUserNameEntity = new Entity(
  {
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
  },
  entityConfig(),
);

export const SessionEntity = new Entity(
  {
    model: { entity: 'session', version: '1', service: 'cluefeed' },
    attributes: {
      tokenHash: { type: 'string', required: true },
      systemUserId: { type: 'string', required: true },
      createdAt: { type: 'string', required: true },
      expiresAt: { type: 'number', required: true },
    },
    indexes: {
      // A session by the SHA-256 of its cookie token: pk session#{tokenHash}
      byToken: {
        pk: {
          field: 'pk',
          composite: ['tokenHash'],
          template: 'session#${tokenHash}',
          casing: 'none',
        },
        sk: { field: 'sk', composite: [], template: 'session', casing: 'none' },
      },
    },
  },
  entityConfig(),
);
