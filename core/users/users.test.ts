import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { config } from '#core/config';
import * as Outbox from '#core/outbox';
import * as Tokens from '#core/tokens';
import * as Users from '#core/users';
import { eventsNaming } from '#tests/integration/business-events';
import { linkIn, messagesTo } from '#tests/integration/mail';
import { useOwnTable } from '#tests/integration/own-table';

const unique = () => ulid().toLowerCase();
const email = () => `reader-${unique()}@example.org`;
const landing = (query = '') => `${config().PUBLIC_URL}/get-started${query}`;
const actorId = () => `admin-${unique()}`;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'a VisibleError').toBeInstanceOf(Error);
  const { name, message, status } = error as Users.User & {
    name: string;
    message: string;
    status: number;
  };
  expect(name).toBe('VisibleError');
  return { message, status };
}

describe('users', () => {
  it('creates a user with defaults: Initial, active, role USER, stored trimmed and lower-cased', async () => {
    const address = email();
    const user = await Users.create({
      name: '  Ada Lovelace ',
      email: `  ${address.toUpperCase()} `,
    });
    expect(user).toMatchObject({
      name: 'Ada Lovelace',
      email: address,
      status: 'Initial',
      isActive: true,
      role: 2,
      descriptors: [],
      invitationVersion: 0,
    });
    expect(await Users.byId(user.id)).toEqual(user);
    expect((await Users.byEmail(address.toUpperCase()))?.id).toBe(user.id);
  });

  it('refuses a second user with the same e-mail, whatever its case, and stores nothing', async () => {
    const address = email();
    const first = await Users.create({ name: 'First', email: address });
    expect(await refusal(Users.create({ name: 'Second', email: address.toUpperCase() }))).toEqual({
      message: 'A user with this email already exists',
      status: 409,
    });
    expect((await Users.search({ query: 'second' })).users).toEqual([]);
    expect((await Users.byEmail(address))?.id).toBe(first.id);
  });

  it('refuses one address spelled another way: its domain in Unicode, punycode or full width', async () => {
    const local = `reader-${unique()}`;
    const first = await Users.create({ name: 'First', email: `${local}@exämple.org` });
    expect(first.email).toBe(`${local}@exämple.org`);
    for (const same of [
      `${local}@xn--exmple-cua.org`,
      `${local}@EXÄMPLE.org`,
      `${local}@exa\u0308mple.org`,
    ]) {
      expect(await refusal(Users.create({ name: 'Second', email: same })), same).toEqual({
        message: 'A user with this email already exists',
        status: 409,
      });
      expect((await Users.byEmail(same))?.id, same).toBe(first.id);
    }
    const wide = await Users.create({ name: 'Wide', email: `${local}@ｅｘａｍｐｌｅ.org` });
    expect(wide.email).toBe(`${local}@example.org`);
    expect(
      await refusal(Users.create({ name: 'Narrow', email: `${local}@example.org` })),
    ).toMatchObject({ status: 409 });
  });

  it('lets only one of two simultaneous creations with one address win', async () => {
    const address = email();
    const results = await Promise.allSettled([
      Users.create({ name: 'One', email: address }),
      Users.create({ name: 'Two', email: address }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });

  it('explains missing or bad fields with the form messages', async () => {
    expect(await refusal(Users.create({ name: ' ', email: email() }))).toEqual({
      message: 'Please add a name',
      status: 400,
    });
    expect(await refusal(Users.create({ name: 'Ada', email: '' }))).toEqual({
      message: 'Please add an email',
      status: 400,
    });
    expect((await refusal(Users.create({ name: 'Ada', email: 'not-an-address' }))).status).toBe(
      400,
    );
    expect(
      (await refusal(Users.create({ name: 'Ada', email: email(), status: 'Boss' as never })))
        .status,
    ).toBe(400);
    expect((await refusal(Users.update(ulid(), { name: 'Nobody' }))).status).toBe(404);
  });

  it('refuses a junk address or a name holding control characters, and stores neither', async () => {
    const local = `junk-${unique()}`;
    for (const junk of [
      `${local}\u0000b@x.co`,
      `${local}\u0001\u0007\u007f@example.org`,
      `${local}\uFFFD\uFFFD\uFFFD@x.co`,
      `${local}@example.org/junk`,
    ]) {
      expect(
        await refusal(Users.create({ name: 'Junk', email: junk })),
        JSON.stringify(junk),
      ).toEqual({
        message: 'Please add a valid email',
        status: 400,
      });
    }
    expect(await Users.byEmail(`${local}@example.org`)).toBeUndefined();
    const address = email();
    expect(await refusal(Users.create({ name: 'Ada\u0000\u0007', email: address }))).toEqual({
      message:
        'This text contains control characters or unreadable symbols (such as �). Please remove them.',
      status: 400,
    });
    expect(await Users.byEmail(address)).toBeUndefined();
    const user = await Users.create({ name: 'Ada', email: address });
    expect((await refusal(Users.update(user.id, { name: 'Ada\uFFFD' }))).status).toBe(400);
    expect((await Users.byEmail(address))?.name).toBe('Ada');
  });

  it('stores a name in NFC, so one name has one spelling', async () => {
    const user = await Users.create({ name: 'Jose\u0301', email: email() });
    expect(user.name).toBe('José');
  });

  it('updates name, status and active flag, never the e-mail', async () => {
    const user = await Users.create({ name: 'Grace', email: email() });
    const updated = await Users.update(user.id, {
      name: 'Grace Hopper',
      status: 'Onboarded',
      isActive: false,
      email: 'other@example.org',
    } as never);
    expect(updated).toMatchObject({
      name: 'Grace Hopper',
      status: 'Onboarded',
      isActive: false,
      email: user.email,
    });
    expect(await Users.byId(user.id)).toMatchObject({ name: 'Grace Hopper', email: user.email });
    // Any status may follow any other (the spec's form restricts no change).
    expect((await Users.update(user.id, { status: 'Invited' })).status).toBe('Invited');
  });

  it('finds users by a name word prefix, the full name or an e-mail prefix, each once', async () => {
    const tag = `zq${unique().slice(-8)}`;
    const ada = await Users.create({ name: `Ada ${tag}ling`, email: `${tag}ada@example.org` });
    const bob = await Users.create({ name: `Bob ${tag}son`, email: `bob-${unique()}@example.org` });
    const ids = async (query: string) =>
      (await Users.search({ query })).users.map((user) => user.id).sort();

    // Ada matches the word, and her e-mail: listed once.
    expect(await ids(tag.toUpperCase())).toEqual([ada.id, bob.id].sort());
    expect(await ids(`ada ${tag}`)).toEqual([ada.id]);
    expect(await ids(`${tag}ada@ex`)).toEqual([ada.id]);
    expect(await ids(bob.email.slice(0, 12))).toEqual([bob.id]);
    expect(await ids(`${tag}x`)).toEqual([]);
  });

  it('no longer finds a user by their old name after a rename', async () => {
    const tag = `zr${unique().slice(-8)}`;
    const user = await Users.create({ name: `Carol ${tag}old`, email: email() });
    await Users.update(user.id, { name: `Carol ${tag}new` });
    expect((await Users.search({ query: `${tag}old` })).users).toEqual([]);
    expect((await Users.search({ query: `${tag}new` })).users.map((u) => u.id)).toEqual([user.id]);
    expect((await Users.search({ query: 'carol' })).users.map((u) => u.id)).toContain(user.id);
  });

  it('pages search results with a cursor, never repeating a user', async () => {
    const tag = `zs${unique().slice(-8)}`;
    const created = [];
    for (let index = 0; index < 13; index += 1) {
      // Each matches by a name word and by the e-mail: two terms, one listing.
      created.push(
        await Users.create({ name: `${tag} ${index}`, email: `${tag}${index}@example.org` }),
      );
    }
    const first = await Users.search({ query: tag });
    expect(first.users).toHaveLength(10);
    const second = await Users.search({ query: tag, cursor: first.next });
    expect(second.next).toBeUndefined();
    const seen = [...first.users, ...second.users].map((user) => user.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(created.map((user) => user.id).sort());
    expect((await refusal(Users.search({ query: 'other', cursor: first.next }))).status).toBe(400);
  });

  it('stores descriptors with ids', async () => {
    const user = await Users.create({ name: 'Dan', email: email() });
    const updated = await Users.setDescriptors(user.id, [' I build zk rollups ', 'I trade NFTs']);
    expect(updated.descriptors?.map((descriptor) => descriptor.clue)).toEqual([
      'I build zk rollups',
      'I trade NFTs',
    ]);
    expect((await Users.byId(user.id))?.descriptors).toEqual(updated.descriptors);
    expect((await refusal(Users.setDescriptors(user.id, ['  ']))).status).toBe(400);
  });
});

describe('listing', () => {
  // Exactly the users this block creates: a table of its own.
  useOwnTable('users-list');

  it('lists users newest first, 10 a page, with older and newer cursors', async () => {
    const created = [];
    for (let index = 0; index < 23; index += 1) {
      created.push(await Users.create({ name: `Paged ${index}`, email: email() }));
    }
    const newest = [...created].reverse().map((user) => user.id);
    const first = await Users.list({});
    expect(first.users.map((user) => user.id)).toEqual(newest.slice(0, 10));
    expect(first.previous).toBeUndefined();
    const second = await Users.list({ cursor: first.next });
    expect(second.users.map((user) => user.id)).toEqual(newest.slice(10, 20));
    const third = await Users.list({ cursor: second.next });
    expect(third.users.map((user) => user.id)).toEqual(newest.slice(20));
    expect(third.next).toBeUndefined();
    const back = await Users.list({ cursor: third.previous });
    expect(back.users.map((user) => user.id)).toEqual(newest.slice(10, 20));
    const backToFirst = await Users.list({ cursor: back.previous });
    expect(backToFirst.users.map((user) => user.id)).toEqual(newest.slice(0, 10));
    expect(backToFirst.previous).toBeUndefined();
    expect((await refusal(Users.list({ cursor: 'after:garbage' }))).status).toBe(400);
    expect((await refusal(Users.list({ cursor: 'sideways' }))).status).toBe(400);
  });
});

describe('invitations', () => {
  const body =
    '<p>Hello <strong>there</strong></p><script>alert(1)</script><img src=x onerror=alert(1)>';

  it('queues the invitation with the version bump; its link names the user with a signed token', async () => {
    const user = await Users.create({ name: 'Eve Invitee', email: email() });
    const { user: invited, email: queued } = await Users.invite({
      userId: user.id,
      body,
      landingUrl: landing('?vus=sp'),
      actorId: actorId(),
    });
    expect(invited).toMatchObject({ status: 'Invited', invitationVersion: 1 });
    expect(await Users.byId(user.id)).toMatchObject({ status: 'Invited', invitationVersion: 1 });
    expect(queued).toMatchObject({ kind: 'invitation', to: user.email, status: 'queued' });

    const [message] = await messagesTo(user.email);
    expect(message?.subject).toBe('You are invited to Cluefeed');
    expect(message?.html).toContain('Hello <strong>there</strong>');
    expect(message?.html).not.toMatch(/<script|onerror|alert\(1\)/);
    const link = new URL(linkIn(message!, landing()));
    expect(link.searchParams.get('vus')).toBe('sp');
    const token = link.searchParams.get('user')!;
    expect(token).not.toContain(user.id);
    expect((await Users.fromInvitation(token)).id).toBe(user.id);
  });

  it('keeps a Verified or Onboarded user’s status when inviting again', async () => {
    const user = await Users.create({ name: 'Vera', email: email(), status: 'Verified' });
    const { user: invited } = await Users.invite({
      userId: user.id,
      body,
      landingUrl: landing(),
      actorId: actorId(),
    });
    expect(invited.status).toBe('Verified');
  });

  it('refuses forged, expired, wrong-purpose and retired invitation links', async () => {
    const user = await Users.create({ name: 'Fay', email: email() });
    const send = () =>
      Users.invite({ userId: user.id, body, landingUrl: landing(), actorId: actorId() });
    const tokenOf = (queued: Outbox.OutboundEmail) =>
      new URL((JSON.parse(queued.props) as { link: string }).link).searchParams.get('user')!;
    const first = tokenOf((await send()).email);
    const second = tokenOf((await send()).email);
    const invalid = 'This invitation link is not valid or has expired';

    expect(await refusal(Users.fromInvitation(first))).toEqual({ message: invalid, status: 410 });
    expect((await Users.fromInvitation(second)).id).toBe(user.id);
    const [payload, signature] = second.split('.');
    const forged = `${Buffer.from(JSON.stringify({ p: 'invite', exp: 2e9, sub: `${user.id}.2` })).toString('base64url')}.${signature}`;
    expect(await refusal(Users.fromInvitation(forged))).toEqual({ message: invalid, status: 400 });
    expect((await refusal(Users.fromInvitation(`${payload}.x${signature}`))).status).toBe(400);
    const later = Date.now() + 15 * 24 * 3600 * 1000;
    expect(await refusal(Users.fromInvitation(second, later))).toEqual({
      message: invalid,
      status: 410,
    });
    const otherPurpose = Tokens.sign('manage', 3600, `${user.id}.2`);
    expect((await refusal(Users.fromInvitation(otherPurpose))).status).toBe(400);
    expect((await refusal(Users.fromInvitation(undefined))).status).toBe(400);
    await Users.update(user.id, { isActive: false });
    expect((await refusal(Users.fromInvitation(second))).status).toBe(410);
  });

  it('refuses a landing page elsewhere, a missing URL or body, and sends nothing', async () => {
    const user = await Users.create({ name: 'Gus', email: email() });
    const tryInvite = (fields: { body?: string; landingUrl?: string }) =>
      refusal(
        Users.invite({
          userId: user.id,
          body: body,
          landingUrl: landing(),
          actorId: actorId(),
          ...fields,
        }),
      );
    expect(await tryInvite({ landingUrl: '' })).toEqual({
      message: 'Please add a landing page URL',
      status: 400,
    });
    for (const landingUrl of [
      'https://evil.example/get-started',
      'javascript:alert(1)',
      `${new URL(config().PUBLIC_URL).protocol}//user:pw@${new URL(config().PUBLIC_URL).host}/`,
    ]) {
      expect((await tryInvite({ landingUrl })).message).toBe(
        `The landing page URL must be a page of ${new URL(config().PUBLIC_URL).origin}`,
      );
    }
    expect(await tryInvite({ body: '<script>alert(1)</script>' })).toEqual({
      message: 'Please add the invitation text',
      status: 400,
    });
    expect(await Users.byId(user.id)).toMatchObject({ status: 'Initial', invitationVersion: 0 });
    expect(
      (await Outbox.recent({ limit: 50 })).filter((queued) => queued.to === user.email),
    ).toEqual([]);
  });

  it('previews the e-mail as sent, storing and sending nothing', async () => {
    const user = await Users.create({ name: 'Ivy', email: email() });
    const preview = await Users.previewInvitation({ userId: user.id, body, landingUrl: landing() });
    expect(preview.subject).toBe('You are invited to Cluefeed');
    expect(preview.html).toContain('Hello <strong>there</strong>');
    expect(preview.html).not.toContain('<script');
    expect(await Users.byId(user.id)).toMatchObject({ invitationVersion: 0, status: 'Initial' });
    expect(
      (await Outbox.recent({ limit: 50 })).filter((queued) => queued.to === user.email),
    ).toEqual([]);
  });

  it('strips scripts, handlers and styles from the body, keeping formatting and links', () => {
    const clean = Users.sanitiseInvitationBody(
      '<h1 style="color:red" onclick="x()">Hi</h1><p><a href="https://cluefeed.xyz" onmouseover="x()">read</a><em>now</em></p><iframe src="https://evil.example"></iframe><script>steal()</script>',
    );
    expect(clean).not.toMatch(/script|steal|onclick|onmouseover|style=|iframe/);
    expect(clean).toContain('<em>now</em>');
    expect(clean).toMatch(/<a href="https:\/\/cluefeed.xyz\/?"/);
  });

  it('records each invitation sent once, with its landing page’s tracking values; a refused one records nothing', async () => {
    const user = await Users.create({ name: 'Ivo Tracked', email: email() });
    const send = (landingUrl: string) =>
      Users.invite({ userId: user.id, body, landingUrl, actorId: actorId() });
    await send(landing('?utm=spring&raud=defi&vus=ip&utm_bad=x'));
    // Three at once: each bumps the version the others were decided from, which refuses them.
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => send(landing())));
    const sent = 1 + outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(sent).toBeLessThan(4);
    await Users.update(user.id, { isActive: false });
    await refusal(send(landing()));
    const invited = (await eventsNaming(user.id)).filter((event) => event.name === 'invited');
    expect((await Users.byId(user.id))?.invitationVersion).toBe(sent);
    expect(invited.map((event) => event.id).sort()).toEqual(
      Array.from({ length: sent }, (_, index) => `invited:${user.id}:${index + 1}`),
    );
    expect(invited.find((event) => event.id.endsWith(':1'))).toMatchObject({
      utm: 'spring',
      raud: 'defi',
      vus: 'ip',
    });
    expect(invited.find((event) => event.id.endsWith(':2'))).not.toHaveProperty('utm');
  });

  it('limits how many invitations one admin sends in an hour', async () => {
    const user = await Users.create({ name: 'Hal', email: email() });
    const admin = actorId();
    const factor = config().RATE_LIMIT_FACTOR;
    const allowed = Users.INVITATIONS_PER_ADMIN.max * factor;
    const invite = () =>
      Users.invite({ userId: user.id, body, landingUrl: landing(), actorId: admin });
    for (let index = 0; index < allowed; index += 1) await invite();
    expect((await refusal(invite())).status).toBe(429);
  }, 60_000);
});
