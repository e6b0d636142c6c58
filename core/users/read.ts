// Reads and writes every users operation shares: a user by id, and a transaction's outcome.
import { domainToASCII, domainToUnicode } from 'node:url';
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { isEmail, VisibleError } from '#core/common';
import { isConditionFailure } from '#core/db';
import { UserEntity } from './entity';

export type User = EntityItem<typeof UserEntity>;

export const NOT_FOUND_MESSAGE = 'This user does not exist';
export const IdSchema = v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, NOT_FOUND_MESSAGE));

/** One descriptor's text, as the funnel and the assistant hand it over. */
export const ClueSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('A clue cannot be empty'),
  v.maxLength(500, 'A clue has at most 500 characters'),
);

/**
 * An address as users are keyed by it: lower-cased, NFC, its domain as IDNA maps it, so
 * `bob@exämple.org`, `bob@EXÄMPLE.org` and `bob@xn--exmple-cua.org` are one user. Undefined when
 * it has no `@` or its domain is no host name.
 */
export function canonicalEmail(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = domainToUnicode(domainToASCII(email.slice(at + 1)));
  return domain ? `${email.slice(0, at).normalize('NFC').toLowerCase()}@${domain}` : undefined;
}

/**
 * A user's address as every form takes it: checked by the users' rule and given in its one
 * spelling (`canonicalEmail`), with the form's own messages.
 */
export const userEmailSchema = (messages: { required: string; invalid: string }) =>
  v.pipe(
    v.string(messages.required),
    v.trim(),
    v.nonEmpty(messages.required),
    v.check((email) => isEmail(canonicalEmail(email) ?? ''), messages.invalid),
    v.transform((email) => canonicalEmail(email)!),
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

/** Runs a write transaction; false when one of its conditions failed (nothing was written). */
export async function committed(transaction: {
  go(): Promise<{ canceled: boolean }>;
}): Promise<boolean> {
  try {
    return !(await transaction.go()).canceled;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
