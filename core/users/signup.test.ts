import { createHash } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Articles from '#core/articles';
import * as Assistant from '#core/assistant';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Scoring from '#core/scoring';
import * as Tokens from '#core/tokens';
import * as Users from '#core/users';
import { eventNamesNaming, eventsNaming } from '#tests/integration/business-events';
import { receive, runToEnd } from '#tests/integration/job-queue';
import { linkIn, messagesTo } from '#tests/integration/mail';
import { useOwnTable } from '#tests/integration/own-table';
import { refusal } from '#tests/integration/refusal';

const unique = () => ulid().toLowerCase();
const landing = `${config().PUBLIC_URL}/get-started`;
// Signups queue scoring runs: a table of its own keeps them out of other files' active lists.
useOwnTable('signup');

const CLUES = ['I build lending protocols on Arbitrum', 'I audit Solidity smart contracts'];

/** An invited user and the token of their invitation link. */
async function invited(name = 'Ivy Invited') {
  const user = await Users.create({ name, email: `ivy-${unique()}@example.org` });
  const { user: after } = await Users.invite({
    userId: user.id,
    body: '<p>Join us</p>',
    landingUrl: landing,
    actorId: `admin-${unique()}`,
  });
  const link = new URL(Users.invitationLink(landing, after));
  return { user: after, token: link.searchParams.get('user')! };
}

/** The user's onboarding interview (the ip variant's thread). */
const interview = (userId: string) =>
  Assistant.initializeThread({ userId, category: 'onboarding' });

describe('the password rules', () => {
  it("answer with the spec's messages: length first, then the digit", () => {
    expect(Users.passwordProblem('')).toBe('Password must be at least 8 characters');
    expect(Users.passwordProblem('abc1')).toBe('Password must be at least 8 characters');
    expect(Users.passwordProblem('abcdefgh')).toBe('Password must contain at least 1 number');
    expect(Users.passwordProblem('abcdefg1')).toBeUndefined();
    expect(Users.passwordProblem(`a1${'x'.repeat(200)}`)).toBe(
      'A password has at most 128 characters',
    );
  });
});

describe('checkSignupStatus (the verification step)', () => {
  it('passes the invited e-mail in any case and moves Invited to Verified', async () => {
    const { user, token } = await invited();
    const status = await Users.checkSignupStatus({ token, email: ` ${user.email.toUpperCase()} ` });
    expect(status).toEqual({ name: user.name, email: user.email, status: 'Verified' });
    expect((await Users.byId(user.id))?.status).toBe('Verified');
  });

  it('passes every address an admin may give a user: apostrophes, plus tags, accents', async () => {
    for (const local of ["o'brien", 'ann+news', 'josé', 'ann_b']) {
      const user = await Users.create({
        name: 'Odd Address',
        email: `${local}-${unique()}@example.org`,
      });
      const { user: after } = await Users.invite({
        userId: user.id,
        body: '<p>Join us</p>',
        landingUrl: landing,
        actorId: `admin-${unique()}`,
      });
      const token = new URL(Users.invitationLink(landing, after)).searchParams.get('user')!;
      expect(await Users.checkSignupStatus({ token, email: user.email }), user.email).toMatchObject(
        {
          status: 'Verified',
        },
      );
    }
  });

  it('refuses another e-mail with the invitation and changes nothing', async () => {
    const { user, token } = await invited();
    expect(await refusal(Users.checkSignupStatus({ token, email: 'someone@example.org' }))).toEqual(
      { message: Users.SIGNUP_MESSAGES.wrongEmail, status: 403 },
    );
    expect((await Users.byId(user.id))?.status).toBe('Invited');
  });

  it('asks for the invitation link without a token or with a forged one, whoever the e-mail is', async () => {
    const { user, token } = await invited();
    const forged = `${token.slice(0, -3)}abc`;
    for (const attempt of [
      () => Users.checkSignupStatus({ email: user.email }),
      () => Users.checkSignupStatus({ token: forged, email: user.email }),
      () => Users.checkSignupStatus({ token: 'nonsense', email: 'nobody@example.org' }),
    ]) {
      expect((await refusal(attempt())).message).toBe(Users.SIGNUP_MESSAGES.needInvitation);
    }
    expect(await refusal(Users.checkSignupStatus({ token, email: 'not an email' }))).toEqual({
      message: 'Please enter a valid email',
      status: 400,
    });
  });
});

describe("a signed-up reader's invitation links", () => {
  it('say so and ask them to sign in, whether spent, replaced by a newer invitation or expired', async () => {
    const { user, token } = await invited();
    await Users.completeSignup({ token, password: 'good pass 1', clues: CLUES });
    const { user: reinvited } = await Users.invite({
      userId: user.id,
      body: '<p>Again</p>',
      landingUrl: landing,
      actorId: `admin-${unique()}`,
    });
    const newer = new URL(Users.invitationLink(landing, reinvited)).searchParams.get('user')!;
    const expired = Tokens.sign('invite', 1, `${user.id}.${reinvited.invitationVersion}`, 0);
    const onboarded = { message: Users.SIGNUP_MESSAGES.alreadyDone, status: 409 };
    for (const link of [token, newer, expired]) {
      expect(await refusal(Users.fromInvitation(link))).toEqual(onboarded);
      expect(await refusal(Users.checkSignupStatus({ token: link, email: user.email }))).toEqual(
        onboarded,
      );
    }
    // A forged link is still told nothing about anyone.
    expect(
      (await refusal(Users.checkSignupStatus({ token: `${token}x`, email: user.email }))).message,
    ).toBe(Users.SIGNUP_MESSAGES.needInvitation);
    await receive((await Jobs.lastRun('score-new-clues'))!.id);
  });
});

describe('completeSignup', () => {
  it('stores the clues, the argon2id hash and Onboarded, retires the link and queues scoring', async () => {
    const { user, token } = await invited();
    const { threadId } = await interview(user.id);
    const done = await Users.completeSignup({
      token,
      password: 'correct horse 1',
      confirmPassword: 'correct horse 1',
      clues: CLUES,
      threadId,
      timeSpentMs: 95_000,
    });
    const stored = (await Users.byId(user.id))!;
    expect(stored).toMatchObject({
      status: 'Onboarded',
      invitationVersion: user.invitationVersion + 1,
      onboardingThreadId: threadId,
      onboardingTimeSpentMs: 95_000,
    });
    expect(stored.descriptors?.map((descriptor) => descriptor.clue)).toEqual(CLUES);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(stored.passwordHash!, 'correct horse 1')).toBe(true);
    expect(done.id).toBe(user.id);

    // The link is spent: a replay is told to sign in, and changes nothing.
    expect(
      await refusal(Users.completeSignup({ token, password: 'another pass 2', clues: CLUES })),
    ).toEqual({ message: 'You have already completed your profile. Please sign in.', status: 409 });
    expect((await Users.byId(user.id))?.passwordHash).toBe(stored.passwordHash);

    const run = await Jobs.lastRun('score-new-clues');
    expect(run).toMatchObject({
      status: 'Queued',
      input: JSON.stringify({ targets: [{ type: 'user', id: user.id }] }),
    });
    await receive(run!.id);
  });

  it('refuses weak passwords, a wrong confirmation and fewer than 2 clues, storing nothing', async () => {
    const { user, token } = await invited();
    const attempt = (changes: Partial<Users.CompleteSignupInput>) =>
      refusal(Users.completeSignup({ token, password: 'good pass 1', clues: CLUES, ...changes }));
    expect(await attempt({ password: 'short1' })).toEqual({
      message: 'Password must be at least 8 characters',
      status: 400,
    });
    expect(await attempt({ password: 'no digits here' })).toEqual({
      message: 'Password must contain at least 1 number',
      status: 400,
    });
    expect(await attempt({ confirmPassword: 'good pass 2' })).toEqual({
      message: 'Passwords do not match',
      status: 400,
    });
    expect(await attempt({ clues: ['only one clue'] })).toEqual({
      message: 'Please add at least 2 clues',
      status: 400,
    });
    expect(await attempt({ clues: ['same clue', 'same clue'] })).toEqual({
      message: 'Please add at least 2 clues',
      status: 400,
    });
    expect(await attempt({ clues: [], threadId: ulid() })).toEqual({
      message: 'Please add at least 1 clue',
      status: 400,
    });
    expect((await attempt({ clues: ['x'.repeat(501), 'fine'] })).status).toBe(400);
    expect(
      (await attempt({ clues: Array.from({ length: 51 }, (_, i) => `clue ${i}`) })).status,
    ).toBe(400);
    const stored = (await Users.byId(user.id))!;
    expect(stored).toMatchObject({ status: 'Invited', descriptors: [] });
    expect(stored.passwordHash).toBeUndefined();
  });

  it('refuses a forged token, a token for another purpose and an older invitation', async () => {
    const { user, token } = await invited();
    const forged = Tokens.sign('confirm', 3600, `${user.id}.${user.invitationVersion}`);
    const older = new URL(
      Users.invitationLink(landing, { id: user.id, invitationVersion: user.invitationVersion - 1 }),
    ).searchParams.get('user')!;
    const attempt = async (bad: string) =>
      (await refusal(Users.completeSignup({ token: bad, password: 'good pass 1', clues: CLUES })))
        .message;
    for (const bad of [forged, `${token}x`]) {
      expect(await attempt(bad)).toBe(Users.SIGNUP_MESSAGES.needInvitation);
    }
    // A genuine link replaced by a newer invitation is said to be no longer valid.
    expect(await attempt(older)).toBe(Users.SIGNUP_MESSAGES.invitationExpired);
    expect((await Users.byId(user.id))?.status).toBe('Invited');
  });

  it("accepts one clue from the ip variant's interview (its thread named)", async () => {
    const { user, token } = await invited();
    await Users.completeSignup({
      token,
      password: 'good pass 1',
      clues: [CLUES[0]!],
      threadId: (await interview(user.id)).threadId,
    });
    expect((await Users.byId(user.id))?.descriptors).toHaveLength(1);
    await receive((await Jobs.lastRun('score-new-clues'))!.id);
  });

  it("refuses a thread that is not the user's own interview, storing nothing", async () => {
    const { user, token } = await invited();
    const stranger = await invited('Sam Stranger');
    const changing = await Assistant.initializeThread({
      userId: user.id,
      category: 'change_clues',
    });
    const threads = [ulid(), (await interview(stranger.user.id)).threadId, changing.threadId];
    for (const threadId of threads) {
      for (const clues of [[CLUES[0]!], CLUES]) {
        expect(
          await refusal(Users.completeSignup({ token, password: 'good pass 1', clues, threadId })),
        ).toEqual({ message: 'This conversation was not found', status: 400 });
      }
    }
    const stored = (await Users.byId(user.id))!;
    expect(stored).toMatchObject({ status: 'Invited', descriptors: [] });
    expect(stored.passwordHash).toBeUndefined();
    expect(stored.onboardingThreadId).toBeUndefined();
  });

  it('lets only one of two simultaneous submits succeed', async () => {
    const { user, token } = await invited();
    const submit = (password: string) =>
      Users.completeSignup({ token, password, clues: CLUES }).then(
        () => 'ok',
        (error: { status: number }) => error.status,
      );
    const outcomes = await Promise.all([submit('first pass 1'), submit('second pass 2')]);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    expect(outcomes).toContain(409);
    const stored = (await Users.byId(user.id))!;
    const matches = await Promise.all(
      ['first pass 1', 'second pass 2'].map((password) => verify(stored.passwordHash!, password)),
    );
    expect(matches.filter(Boolean)).toHaveLength(1);
    const run = await Jobs.lastRun('score-new-clues');
    if (run) await receive(run.id);
  });
});

describe("the funnel's events", () => {
  it('records the funnel start once, on the first step passed, with the tracking values stored on the reader', async () => {
    const { user, token } = await invited();
    const tracking = { utm: 'spring', raud: 'defi', vus: 'sp' } as const;
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        Users.checkSignupStatus({ token, email: user.email, tracking }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(4).fill('Verified'));
    await Users.checkSignupStatus({ token, email: user.email, tracking: { utm: 'later' } });
    const started = (await eventsNaming(user.id)).filter((e) => e.name === 'funnel_started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ id: `funnel_started:${user.id}`, ...tracking });
    const stored = (await Users.byId(user.id))!;
    expect(stored).toMatchObject({ status: 'Verified', ...tracking });
    expect(stored.funnelStartedAt).toBe(started[0]!.at);
  });

  it('records nothing for a refused step: another e-mail, a forged or replaced link', async () => {
    const { user, token } = await invited();
    await refusal(Users.checkSignupStatus({ token, email: 'someone@example.org' }));
    await refusal(Users.checkSignupStatus({ token: `${token}x`, email: user.email }));
    await Users.invite({
      userId: user.id,
      body: '<p>Again</p>',
      landingUrl: landing,
      actorId: `admin-${unique()}`,
    });
    await refusal(Users.checkSignupStatus({ token, email: user.email }));
    expect(await eventNamesNaming(user.id)).toEqual(['invited', 'invited']);
    expect((await Users.byId(user.id))?.funnelStartedAt).toBeUndefined();
  });

  it('records the signup once, with the tracking values the reader started with; a refused one records nothing', async () => {
    const { user, token } = await invited();
    await Users.checkSignupStatus({ token, email: user.email, tracking: { utm: 'autumn' } });
    await refusal(Users.completeSignup({ token, password: 'short', clues: CLUES }));
    expect(await eventNamesNaming(user.id)).not.toContain('onboarded');
    const submit = () =>
      Users.completeSignup({ token, password: 'good pass 1', clues: CLUES }).then(
        () => 'ok',
        (error: { status: number }) => error.status,
      );
    const outcomes = await Promise.all([submit(), submit(), submit()]);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    const onboarded = (await eventsNaming(user.id)).filter((e) => e.name === 'onboarded');
    expect(onboarded).toHaveLength(1);
    expect(onboarded[0]).toMatchObject({ id: `onboarded:${user.id}`, utm: 'autumn' });
    expect((await Users.byId(user.id))?.onboardedAt).toBe(onboarded[0]!.at);
    await receive((await Jobs.lastRun('score-new-clues'))!.id);
  });

  it('records a second signup of a reader an admin set back to Initial as nothing new, keeping the first time', async () => {
    const { user, token } = await invited();
    const first = await Users.completeSignup({ token, password: 'good pass 1', clues: CLUES });
    await Users.update(user.id, { status: 'Initial' });
    const { user: again } = await Users.invite({
      userId: user.id,
      body: '<p>Again</p>',
      landingUrl: landing,
      actorId: `admin-${unique()}`,
    });
    const newer = new URL(Users.invitationLink(landing, again)).searchParams.get('user')!;
    const second = await Users.completeSignup({
      token: newer,
      password: 'good pass 2',
      clues: CLUES,
    });
    expect(second.status).toBe('Onboarded');
    expect((await Users.byId(user.id))?.onboardedAt).toBe(first.onboardedAt);
    expect((await eventNamesNaming(user.id)).filter((name) => name === 'onboarded')).toHaveLength(
      1,
    );
    await receive((await Jobs.lastRun('score-new-clues'))!.id);
  });
});

describe("scoring a new reader's clues", () => {
  it("scores the newest articles against the new reader's descriptors as a user target", async () => {
    const { token, user } = await invited();
    const canonicalUrl = `https://news.example/lending-${unique()}`;
    await Articles.storeIfNew({
      canonicalUrl,
      title: 'Lending protocols on Arbitrum add isolated markets',
      summary: 'Lending protocols on Arbitrum',
      publishedAt: new Date().toISOString(),
      source: 'Test Wire',
      streamId: 'stream-1',
      fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    });
    const article = (await Articles.byUrl(canonicalUrl))!;
    await Users.completeSignup({ token, password: 'good pass 1', clues: CLUES });
    const run = (await Jobs.lastRun('score-new-clues'))!;
    expect(run.slot).toBe(`score-new-clues#user#${user.id}`);
    expect((await runToEnd(run.id, Worker.jobs)).ended.status).toBe('Success');
    const reader = Scoring.userTarget((await Users.byId(user.id))!);
    const { scores } = await Scoring.forPairs(
      [article.id],
      [reader],
      await Scoring.productionKeys(),
    );
    expect(scores).toEqual([
      expect.objectContaining({ matchingType: 'user', matchingId: user.id }),
    ]);
  });

  it("sends the reader the 'newsfeed is ready' e-mail with the sign-in link once the run is done, and only once", async () => {
    const { token, user } = await invited();
    await Users.completeSignup({ token, password: 'good pass 1', clues: CLUES });
    const run = (await Jobs.lastRun('score-new-clues'))!;
    const feedReady = async () =>
      (await Outbox.recent({ limit: 200 })).filter(
        (email) => email.to === user.email && email.kind === 'feed-ready',
      );
    expect(await feedReady()).toEqual([]);
    const messages = await receive(run.id);
    await Jobs.handleBatch(messages, Worker.jobs);
    const chunks = await receive(run.id);
    await Promise.all(chunks.map((message) => Jobs.handleBatch([message], Worker.jobs)));
    expect((await Jobs.byId(run.id))?.status).toBe('Success');
    expect((await Users.byId(user.id))?.feedReadyAt).toEqual(expect.any(String));
    expect(await feedReady()).toHaveLength(1);

    // Redelivered messages, and a second run for the same reader, send nothing more.
    await Jobs.handleBatch([...messages, ...chunks], Worker.jobs);
    const again = await Jobs.enqueue(
      Automations.scoreNewClues,
      { targets: [{ type: 'user', id: user.id }] },
      user.id,
    );
    expect((await runToEnd(again.id, Worker.jobs)).ended.status).toBe('Success');
    expect(await feedReady()).toHaveLength(1);

    const sent = (await messagesTo(user.email)).filter(
      (message) => message.subject === 'Your Cluefeed newsfeed is ready',
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('Your newsfeed is ready');
    expect(linkIn(sent[0]!, config().PUBLIC_URL)).toBe(`${config().PUBLIC_URL}/login`);
  });

  it('queues the e-mail once when runs finish at the same moment', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { user } = await invited(`Ready ${round}`);
      const marks = await Promise.all(
        Array.from({ length: 4 }, () => Users.markFeedReady(user.id).catch(() => 'refused')),
      );
      // One queued it; the others saw it done (or were refused and would be retried).
      expect(marks.filter((mark) => mark === true)).toHaveLength(1);
      const queued = (await Outbox.recent({ limit: 200 })).filter(
        (email) => email.to === user.email && email.kind === 'feed-ready',
      );
      expect(queued).toHaveLength(1);
    }
  });
});
