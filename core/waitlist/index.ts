// The waiting list: addresses of visitors who want in, each stored once.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { EMAIL_MESSAGES, fn, TrackingSchema } from '#core/common';
import { isConditionFailure } from '#core/db';
import { EmailSchema, emailKey } from '#core/mail';
import { WaitlistEntryEntity } from './entity';

export { WaitlistEntryEntity };
export type WaitlistEntry = EntityItem<typeof WaitlistEntryEntity>;

/**
 * The spec's rule: an address with no spaces (a space is shown as invalid, never removed), then
 * the product's one address rule and spelling.
 */
const WaitlistEmail = v.pipe(
  v.string(EMAIL_MESSAGES.empty),
  v.nonEmpty(EMAIL_MESSAGES.empty),
  v.check((value) => !/\s/.test(value), EMAIL_MESSAGES.invalid),
  EmailSchema,
);

export const JoinInput = v.object({ email: WaitlistEmail, ...TrackingSchema.entries });

/** Adds an address; joining twice keeps the first entry and still succeeds. */
export const join = fn(JoinInput, async (input): Promise<{ alreadyJoined: boolean }> => {
  try {
    await WaitlistEntryEntity.create({ ...input, createdAt: new Date().toISOString() }).go();
    return { alreadyJoined: false };
  } catch (error) {
    if (isConditionFailure(error)) return { alreadyJoined: true };
    throw error;
  }
});

export async function byEmail(email: string): Promise<WaitlistEntry | undefined> {
  const { data } = await WaitlistEntryEntity.get({ email: emailKey(email) }).go();
  return data ?? undefined;
}
