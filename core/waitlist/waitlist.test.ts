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

  it('refuses an address holding NUL, controls, invalid UTF-8 or a path, and stores nothing', async () => {
    const local = `junk-${ulid().toLowerCase()}`;
    for (const typed of [
      `${local}\u0000b@x.co`,
      `${local}\u0001\u0007\u007f@example.org`,
      `${local}\uFFFD\uFFFD\uFFFD@x.co`,
      `${local}\uD800@example.org`,
      `${local}@example.org/junk`,
    ]) {
      await expect(Waitlist.join({ email: typed }), JSON.stringify(typed)).rejects.toMatchObject({
        message: 'Please enter a valid email address',
        status: 400,
      });
      expect(await Waitlist.byEmail(typed), JSON.stringify(typed)).toBeUndefined();
    }
  });

  it('keys an address by its one spelling, as users are keyed', async () => {
    const local = `josé-${ulid().toLowerCase()}`;
    expect(await Waitlist.join({ email: `${local}@EXÄMPLE.org` })).toEqual({
      alreadyJoined: false,
    });
    expect(await Waitlist.join({ email: `${local}@xn--exmple-cua.org` })).toEqual({
      alreadyJoined: true,
    });
    expect((await Waitlist.byEmail(`${local}@exämple.org`))?.email).toBe(`${local}@exämple.org`);
  });
});
