// Reads and writes every users operation shares: a user by id, and a transaction's outcome.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { freeText, VisibleError } from '#core/common';
import type { ItemRead } from '#core/db';
import { UserEntity } from './entity';

export type User = EntityItem<typeof UserEntity>;
/** One of what the reader does not want (ADR 0045). */
export type Mute = NonNullable<User['mutes']>[number];

export const NOT_FOUND_MESSAGE = 'This user does not exist';
export const IdSchema = v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, NOT_FOUND_MESSAGE));

/** One descriptor's text, as the funnel and the assistant hand it over. */
export const ClueSchema = v.pipe(
  freeText({ max: 500, tooLong: 'A clue has at most 500 characters' }),
  v.nonEmpty('A clue cannot be empty'),
);

export async function byId(id: string): Promise<User | undefined> {
  if (!v.is(IdSchema, id)) return undefined;
  const { data } = await UserEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/** A user by id, for a read of several entities' items in one call (`getTogether`). */
export function userRead(id: string): ItemRead<User> {
  return {
    key: UserEntity.get({ id }).params().Key,
    parse: (item) => UserEntity.parse({ Item: item }).data ?? undefined,
  };
}

/** The user or a 404 VisibleError. */
export async function mustGet(id: string): Promise<User> {
  const user = await byId(id);
  if (!user) throw new VisibleError('user.not_found', NOT_FOUND_MESSAGE, 404);
  return user;
}
