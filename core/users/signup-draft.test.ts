import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { TEXT_MESSAGES } from '#core/common';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Users from '#core/users';
import { receive } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { refusal } from '#tests/integration/refusal';

const unique = () => ulid().toLowerCase();
const landing = `${config().PUBLIC_URL}/get-started`;
// Signups queue scoring runs: a table of its own keeps them out of other files' active lists.
useOwnTable('draft');

async function invited(name = 'Dora Draft') {
  const user = await Users.create({ name, email: `dora-${unique()}@example.org` });
  const { user: after } = await Users.invite({
    userId: user.id,
    body: '<p>Join us</p>',
    landingUrl: landing,
    actorId: `admin-${unique()}`,
  });
  return {
    user: after,
    token: new URL(Users.invitationLink(landing, after)).searchParams.get('user')!,
  };
}

const entry = (name: string, finalized = true) => ({
  id: `entry-${unique()}`,
  name,
  starterId: 'starter-build',
  pointer: { name: 'protocols for' },
  rank: 'HIGH' as const,
  score: 'very insightful',
  suggestions: [],
  finalized,
  isEditMode: false,
  submitted: name,
});

const state = (names: string[], step: Users.DraftState['step'] = 'starters'): Users.DraftState => ({
  variant: '',
  step,
  entries: names.map((name) => entry(name)),
});

describe('the funnel draft', () => {
  it('is kept against the invitation and read back only with its link', async () => {
    const { user, token } = await invited();
    expect((await Users.openInvitation(token)).draft).toBeUndefined();
    const typed = state(['lending with isolated markets'], 'descriptor');
    expect(await Users.saveDraft({ token, revision: 0, state: typed })).toEqual({ revision: 1 });
    const { user: read, draft } = await Users.openInvitation(token);
    expect(read.id).toBe(user.id);
    expect(draft).toEqual({ revision: 1, state: typed });
    expect(draft!.state.entries[0]).toMatchObject({ name: 'lending with isolated markets' });

    // Another reader's link reads their own (none), a forged one nothing.
    const other = await invited('Olga Other');
    expect((await Users.openInvitation(other.token)).draft).toBeUndefined();
    expect(await refusal(Users.openInvitation(`${token}x`))).toEqual({
      message: Users.SIGNUP_MESSAGES.needInvitation,
      status: 400,
    });
  });

  it('refuses a write over a revision it did not see: of two windows saving at once, one wins', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { token } = await invited();
      const outcomes = await Promise.all(
        ['first window', 'second window'].map((name) =>
          Users.saveDraft({ token, revision: 0, state: state([name]) }).then(
            () => name,
            (error: { status: number; message: string }) => error,
          ),
        ),
      );
      const winners = outcomes.filter((outcome) => typeof outcome === 'string');
      expect(winners).toHaveLength(1);
      expect(outcomes).toContainEqual(
        expect.objectContaining({ status: 409, message: Users.DRAFT_MESSAGES.changed }),
      );
      const { draft } = await Users.openInvitation(token);
      expect(draft?.state.entries.map((item) => item.name)).toEqual(winners);
      expect(draft?.revision).toBe(1);
    }
  });

  it('is removed by the signup, and a spent link can no longer write one', async () => {
    const { user, token } = await invited();
    await Users.saveDraft({ token, revision: 0, state: state(['a', 'b'], 'review') });
    await Users.completeSignup({
      token,
      password: 'good pass 1',
      clues: ['I build a', 'I build b'],
    });
    const stored = (await Users.byId(user.id))!;
    expect(stored.signupDraft).toBeUndefined();
    expect(stored.signupDraftRevision).toBeUndefined();
    expect(await refusal(Users.saveDraft({ token, revision: 1, state: state(['c']) }))).toEqual({
      message: Users.SIGNUP_MESSAGES.alreadyDone,
      status: 409,
    });
    expect((await Users.byId(user.id))?.signupDraft).toBeUndefined();
    await receive((await Jobs.lastRun('score-new-clues'))!.id);
  });

  it('a save racing the signup never leaves a draft on a signed-up reader', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { user, token } = await invited();
      await Promise.all([
        Users.completeSignup({ token, password: 'good pass 1', clues: ['I build a', 'I build b'] }),
        Users.saveDraft({ token, revision: 0, state: state(['late']) }).catch(() => undefined),
      ]);
      const stored = (await Users.byId(user.id))!;
      expect(stored.status).toBe('Onboarded');
      expect(stored.signupDraft).toBeUndefined();
      await receive((await Jobs.lastRun('score-new-clues'))!.id);
    }
  });

  it('is removed by a new invitation: the new link starts afresh, the old one is refused', async () => {
    const { user, token } = await invited();
    await Users.saveDraft({ token, revision: 0, state: state(['old'], 'starters') });
    const { user: again } = await Users.invite({
      userId: user.id,
      body: '<p>Again</p>',
      landingUrl: landing,
      actorId: `admin-${unique()}`,
    });
    const newer = new URL(Users.invitationLink(landing, again)).searchParams.get('user')!;
    expect((await Users.openInvitation(newer)).draft).toBeUndefined();
    expect(await refusal(Users.saveDraft({ token, revision: 1, state: state(['stale']) }))).toEqual(
      { message: Users.SIGNUP_MESSAGES.invitationExpired, status: 410 },
    );
    expect((await Users.byId(user.id))?.signupDraft).toBeUndefined();
  });

  it('refuses a draft that is not valid or too large, storing nothing', async () => {
    const { user, token } = await invited();
    const bad: [unknown, string][] = [
      [{ ...state(['x']), step: 'completed' }, Users.DRAFT_MESSAGES.invalid],
      [
        { ...state(['x']), entries: [{ ...entry('x'), rank: 'GREAT' }] },
        Users.DRAFT_MESSAGES.invalid,
      ],
      [{ ...state([]), threadId: 'not-a-ulid' }, Users.DRAFT_MESSAGES.invalid],
      [{ ...state([]), review: { clues: ['  '], suggestion: '' } }, 'A clue cannot be empty'],
      // What nobody types: NUL, a control character, half a character, invalid UTF-8 decoded.
      ...['a\u0000b', 'ctl\u0007', 'half \ud800', 'broken \ufffd'].map(
        (name): [unknown, string] => [state([name]), TEXT_MESSAGES.unreadable],
      ),
      [
        { ...state([]), review: { clues: ['I build\u0001 DeFi'], suggestion: '' } },
        TEXT_MESSAGES.unreadable,
      ],
    ];
    for (const [draft, message] of bad) {
      expect(await refusal(Users.saveDraft({ token, revision: 0, state: draft as never }))).toEqual(
        { message, status: 400 },
      );
    }
    const huge = state(
      Array.from({ length: 50 }, () => 'x'.repeat(300)),
      'starters',
    );
    huge.entries = huge.entries.map((item) => ({
      ...item,
      suggestions: Array.from({ length: 10 }, () => 'y'.repeat(300)),
    }));
    expect(await refusal(Users.saveDraft({ token, revision: 0, state: huge }))).toEqual({
      message: Users.DRAFT_MESSAGES.tooLarge,
      status: 413,
    });
    expect((await Users.byId(user.id))?.signupDraft).toBeUndefined();
  });
});
