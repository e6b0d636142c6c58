import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Waitlist from '#core/waitlist';

describe('waitlist', () => {
  it('stores an address once, normalised, however often it joins', async () => {
    const email = `Visitor.${ulid()}@Example.org`;
    expect(await Waitlist.join({ email, utm: 'x-campaign' })).toEqual({
      alreadyJoined: false,
    });
    expect(await Waitlist.join({ email: email.toLowerCase() })).toEqual({ alreadyJoined: true });
    expect(await Waitlist.byEmail(email)).toMatchObject({
      email: email.toLowerCase(),
      utm: 'x-campaign',
    });
  });

  it('explains an empty or invalid address', async () => {
    await expect(Waitlist.join({ email: '' })).rejects.toMatchObject({
      message: 'Please enter your email address',
    });
    await expect(Waitlist.join({ email: 'not an email' })).rejects.toMatchObject({
      message: 'Please enter a valid email address',
      status: 400,
    });
  });

  it('refuses an address with a space anywhere instead of removing it', async () => {
    const email = `spaced-${ulid().toLowerCase()}@example.org`;
    for (const typed of [`spaced -${email.slice(7)}`, ` ${email}`, `${email} `, `${email}\t`]) {
      await expect(Waitlist.join({ email: typed }), JSON.stringify(typed)).rejects.toMatchObject({
        message: 'Please enter a valid email address',
        status: 400,
      });
    }
    expect(await Waitlist.byEmail(email)).toBeUndefined();
  });
});
