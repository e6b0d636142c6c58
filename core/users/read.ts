// Reads and writes every users operation shares: a user by id, and a transaction's outcome.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { freeText, VisibleError } from '#core/common';
import { isConditionFailure } from '#core/db';
import { UserEntity } from './entity';

export type User = EntityItem<typeof UserEntity>;

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

/** The user or a 404 VisibleError. */
export async function mustGet(id: string): Promise<User> {
  const user = await byId(id);
  if (!user) throw new VisibleError('user.not_found', NOT_FOUND_MESSAGE, 404);
  return user;
}

/** Tries of a transaction that only collided with another one (never one a condition refused). */
const CONFLICT_ATTEMPTS = 4;

type Transaction = {
  go(): Promise<{ canceled: boolean; data: { code: string }[] }>;
};

/**
 * Runs a transaction: false when a condition refused it, so the change was made before or the
 * state it was decided from is gone. One cancelled only because another transaction held one of
 * its items is tried again, so a change nobody else made is not lost to a collision.
 */
export async function committedOnce(write: Transaction): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const result = await write.go().catch((error: unknown) => {
      if (isConditionFailure(error))
        return { canceled: true, data: [{ code: 'ConditionalCheckFailed' }] };
      throw error;
    });
    if (!result.canceled) return true;
    const codes = result.data.map((item) => item.code);
    if (codes.includes('ConditionalCheckFailed')) return false;
    if (attempt >= CONFLICT_ATTEMPTS) {
      throw new Error(`The transaction was cancelled (${codes.join(', ')})`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
  }
}
