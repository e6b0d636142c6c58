import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { config } from '#core/config';
import * as Users from '#core/users';
import { eventsNaming } from '#tests/integration/business-events';
import { action } from './get-started.call';
import { action as pageAction, loader } from './get-started';

const unique = () => ulid().toLowerCase();
const BASE = 'http://localhost/get-started';

/** A user with a valid invitation link (version 0, as created). */
async function invited() {
  const user = await Users.create({ name: 'Rita Route', email: `rita-${unique()}@example.org` });
  const link = new URL(
    Users.invitationLink(`${config().PUBLIC_URL}/get-started`, {
      id: user.id,
      invitationVersion: 0,
    }),
  );
  return { user, token: link.searchParams.get('user')! };
}

async function load(query: string) {
  try {
    const answer = await loader({
      request: new Request(`${BASE}${query}`),
      params: {},
      context: {},
    });
    return { data: answer.data, status: answer.init?.status ?? 200 };
  } catch (thrown) {
    return { thrown: thrown as Response };
  }
}

async function call(name: string, body: unknown, type = 'application/json') {
  const response = await action({
    request: new Request(`${BASE}/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    params: { call: name },
    context: {},
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('GET /get-started', () => {
  it('removes a vus other than empty, sp or ip by a redirect that keeps the other parameters', async () => {
    const { thrown } = await load('?utm=mail&vus=zz&user=abc');
    expect(thrown?.status).toBe(302);
    expect(thrown?.headers.get('Location')).toBe('/get-started?utm=mail&user=abc');
    for (const vus of ['', 'sp', 'ip']) {
      expect((await load(`?vus=${vus}`)).data?.variant).toBe(vus);
    }
  });

  it('removes a repeated vus too, keeping only the first of ours', async () => {
    for (const [query, location] of [
      ['?vus=sp&vus=zz&user=abc', '/get-started?user=abc&vus=sp'],
      ['?vus=zz&utm=mail&vus=ip', '/get-started?utm=mail&vus=ip'],
      ['?vus=sp&vus=ip', '/get-started?vus=sp'],
      ['?vus=zz&vus=yy', '/get-started'],
    ]) {
      const { thrown } = await load(query!);
      expect(thrown?.status, query).toBe(302);
      expect(thrown?.headers.get('Location'), query).toBe(location);
    }
  });

  it('names the invited user for a valid link, nobody for a missing one, says a broken link is not valid, and tells a signed-up reader to sign in', async () => {
    const { user, token } = await invited();
    expect((await load(`?user=${token}`)).data?.invited).toEqual({
      name: user.name,
      email: user.email,
      status: 'Initial',
    });
    expect((await load(`?user=${token}`)).data?.linkProblem).toBeNull();
    // No link: the verification step, as the spec has it.
    expect(await load('')).toMatchObject({
      status: 200,
      data: { invited: null, linkProblem: null, onboarded: null },
    });
    // A link that names nobody says so, with a 400 (nothing about who is invited).
    for (const query of [
      '?user=',
      `?user=${token.slice(0, -2)}xx`,
      '?user=not-a-token',
      `?user=${'a'.repeat(5000)}`,
    ]) {
      expect(await load(query), query).toMatchObject({
        status: 400,
        data: {
          invited: null,
          linkProblem: 'This invitation link is not valid or has expired',
          onboarded: null,
          starters: [],
        },
      });
    }
    // A link replaced by a newer invitation: the same words, and the link is gone (410).
    const replaced = await invited();
    await Users.UserEntity.patch({ id: replaced.user.id }).set({ invitationVersion: 1 }).go();
    expect(await load(`?user=${replaced.token}`)).toMatchObject({
      status: 410,
      data: { invited: null, linkProblem: 'This invitation link is not valid or has expired' },
    });
    await Users.completeSignup({
      token,
      password: 'good pass 1',
      clues: ['I build a', 'I build b'],
    });
    // The spent link says at once that the reader has signed up, with no step to take.
    expect((await load(`?user=${token}`)).data).toMatchObject({
      invited: null,
      linkProblem: null,
      onboarded: 'You have already completed your profile. Please sign in.',
      draft: null,
    });
  });

  it('sends a reopened invitation to the step its draft was at, in its variant; with a step, shows the draft', async () => {
    const { user, token } = await invited();
    await Users.checkSignupStatus({ token, email: user.email });
    const state: Users.DraftState = {
      variant: 'sp',
      step: 'descriptor',
      entries: [
        {
          id: 'entry-1',
          name: 'lending markets',
          starterId: 'build',
          pointer: { name: 'protocols for' },
          rank: 'NOT_RANKED',
          suggestions: [],
          finalized: false,
          isEditMode: false,
        },
      ],
      currentId: 'entry-1',
    };
    await Users.saveDraft({ token, revision: 0, state });
    const { thrown } = await load(`?utm=mail&user=${token}`);
    expect(thrown?.status).toBe(302);
    expect(thrown?.headers.get('Location')).toBe(
      `/get-started?utm=mail&user=${token}&vus=sp&step=descriptor`,
    );
    const { data } = await load(`?utm=mail&user=${token}&vus=sp&step=descriptor`);
    expect(data?.draft).toEqual({ revision: 1, state });
    // Another variant's steps do not fit the draft: that page starts afresh.
    expect((await load(`?user=${token}&vus=ip&step=chat`)).data?.draft).toBeNull();
    // Another reader's link never shows it.
    const other = await invited();
    expect((await load(`?user=${other.token}&vus=sp&step=descriptor`)).data?.draft).toBeNull();
  });

  it("shows a reopened interview's messages from the reader's own thread", async () => {
    const { user, token } = await invited();
    await Users.checkSignupStatus({ token, email: user.email });
    const thread = await call('initialize-thread', { token });
    const threadId = thread.body.threadId as string;
    await call('send-message', { token, threadId, message: 'I collect generative art' });
    await call('save-draft', {
      token,
      revision: 0,
      state: { variant: 'ip', step: 'chat', entries: [], threadId },
    });
    const { data } = await load(`?user=${token}&vus=ip&step=chat`);
    expect(data?.chat?.threadId).toBe(threadId);
    expect(data?.chat?.messages.map((message) => message.role)).toEqual([
      'assistant',
      'user',
      'assistant',
    ]);
    expect(data?.chat?.messages[1]?.bubbles).toEqual(['I collect generative art']);
  });
});

describe("POST /get-started: Welcome's 'Start' without JavaScript", () => {
  const start = (query: string, body = 'intent=start', origin = 'http://localhost') =>
    pageAction({
      request: new Request(`${BASE}${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
        body,
      }),
      params: {},
      context: {},
    });
  const answerOf = async (query: string, body?: string, origin?: string) => {
    try {
      const answer = await start(query, body, origin);
      return 'init' in answer
        ? { status: answer.init?.status ?? 200, data: answer.data }
        : { status: answer.status, location: answer.headers.get('Location') };
    } catch (thrown) {
      return { status: (thrown as Response).status };
    }
  };

  it("verifies the invited reader and redirects to their variant's first step", async () => {
    const { user, token } = await invited();
    expect(await answerOf(`?utm=mail&user=${token}`)).toEqual({
      status: 302,
      location: `/get-started?utm=mail&user=${token}&step=starters`,
    });
    const stored = await Users.byId(user.id);
    expect(stored?.status).toBe('Verified');
    expect(stored?.utm).toBe('mail');
    const ip = await invited();
    expect(await answerOf(`?user=${ip.token}&vus=ip`)).toMatchObject({
      location: `/get-started?user=${ip.token}&vus=ip&step=chat`,
    });
  });

  it('refuses a broken link, another action or another site with a 4xx and changes nothing', async () => {
    const { user, token } = await invited();
    // (The page it comes back to says the link is not valid: the loader's own word.)
    expect(await answerOf(`?user=${token.slice(0, -2)}xx`)).toEqual({
      status: 400,
      data: { error: Users.SIGNUP_MESSAGES.needInvitation },
    });
    expect(await answerOf(`?user=${token}`, 'intent=other')).toEqual({
      status: 400,
      data: { error: 'Unknown action' },
    });
    expect((await answerOf(`?user=${token}`, 'intent=start', 'https://evil.example')).status).toBe(
      403,
    );
    expect((await Users.byId(user.id))?.status).toBe('Initial');
  });
});

describe('POST /get-started/{call}', () => {
  it('verification: the invited e-mail passes; another, or no link, is a clear 403', async () => {
    const { user, token } = await invited();
    expect(await call('check-signup-status', { token, email: user.email.toUpperCase() })).toEqual({
      status: 200,
      body: { name: user.name, status: 'Verified' },
    });
    expect(
      (await call('check-signup-status', { token, email: 'x@example.org' })).body.error,
    ).toEqual({ code: 'user.wrong_email', message: Users.SIGNUP_MESSAGES.wrongEmail });
    const noLink = await call('check-signup-status', { email: user.email });
    expect(noLink.status).toBe(403);
    expect(noLink.body.error.message).toBe(Users.SIGNUP_MESSAGES.needInvitation);
    expect((await call('check-signup-status', { token: 5, email: user.email })).status).toBe(400);
  });

  it("verification starts the reader's funnel once, with the page's tracking values; opening the link records nothing", async () => {
    const { user, token } = await invited();
    await load(`?utm=spring&raud=defi&vus=sp&user=${token}`);
    expect(await eventsNaming(user.id)).toEqual([]);
    const search = `?utm=spring&raud=bad%20slug&vus=sp&user=${token}&step=starters`;
    const answers = await Promise.all(
      [1, 2].map(() => call('check-signup-status', { token, email: user.email, search })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await call('check-signup-status', { token, email: user.email, search: '?utm=other' });
    expect(await Users.byId(user.id)).toMatchObject({ utm: 'spring', vus: 'sp' });
    expect((await Users.byId(user.id))?.raud).toBeUndefined();
    const events = await eventsNaming(user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ name: 'funnel_started', utm: 'spring', vus: 'sp' });
    expect(
      (await call('check-signup-status', { token, email: user.email, search: 'x'.repeat(4001) }))
        .body.error,
    ).toEqual({ code: 'input.invalid', message: 'The page address is too long' });
  });

  it('verification without an e-mail asks for it', async () => {
    const { token } = await invited();
    for (const body of [{ token }, {}]) {
      expect(await call('check-signup-status', body)).toEqual({
        status: 400,
        body: { error: { code: 'input.invalid', message: Users.SIGNUP_MESSAGES.emailRequired } },
      });
    }
  });

  it('signup: weak password and too few clues get the spec messages; a replay is refused', async () => {
    const { token } = await invited();
    const weak = await call('signup', { token, password: 'abcdefgh', clues: ['a b', 'c d'] });
    expect(weak).toMatchObject({
      status: 400,
      body: { error: { message: 'Password must contain at least 1 number' } },
    });
    const few = await call('signup', { token, password: 'abcdefg1', clues: ['only one'] });
    expect(few.body.error.message).toBe('Please add at least 2 clues');
    expect(
      (await call('signup', { token, password: 'abcdefg1', clues: ['a b', 'c d'] })).status,
    ).toBe(200);
    const replay = await call('signup', { token, password: 'abcdefg1', clues: ['a b', 'c d'] });
    expect(replay.status).toBe(409);
    expect(replay.body.error).toEqual({
      code: 'user.already_onboarded',
      message: 'You have already completed your profile. Please sign in.',
    });
  });

  it('save-draft: stores the draft for the link; bad input is a 4xx, a stale revision a 409', async () => {
    const { user, token } = await invited();
    const state = { variant: '', step: 'starters', entries: [] };
    expect(await call('save-draft', { token, revision: 0, state })).toEqual({
      status: 200,
      body: { revision: 1 },
    });
    expect(JSON.parse((await Users.byId(user.id))!.signupDraft!)).toEqual(state);
    const stale = await call('save-draft', { token, revision: 0, state });
    expect(stale).toMatchObject({
      status: 409,
      body: { error: { code: 'user.draft_changed', message: Users.DRAFT_MESSAGES.changed } },
    });
    expect((await call('save-draft', { token, revision: 1, state: { step: 'x' } })).status).toBe(
      400,
    );
    expect((await call('save-draft', { token: 'forged', revision: 1, state })).status).toBe(400);
    expect((await call('save-draft', { revision: 1, state })).status).toBe(400);
    expect((await Users.byId(user.id))!.signupDraftRevision).toBe(1);
  });

  it("read-draft: answers the link's draft as it is now, with its interview; another variant's or reader's, none", async () => {
    const { user, token } = await invited();
    await Users.checkSignupStatus({ token, email: user.email });
    expect(await call('read-draft', { token, variant: 'ip' })).toEqual({
      status: 200,
      body: { draft: null, chat: null },
    });
    const thread = await call('initialize-thread', { token });
    const threadId = thread.body.threadId as string;
    const state = { variant: 'ip', step: 'chat', entries: [], threadId };
    await call('save-draft', { token, revision: 0, state });
    // Saved after the page's loader read the draft (the page before it leaving): read as it is now.
    await call('save-draft', { token, revision: 1, state: { ...state, startedAt: 5 } });
    const read = await call('read-draft', { token, variant: 'ip' });
    expect(read.body.draft).toEqual({ revision: 2, state: { ...state, startedAt: 5 } });
    expect(read.body.chat).toEqual((await load(`?user=${token}&vus=ip&step=chat`)).data?.chat);
    expect(read.body.chat.messages).toHaveLength(1);
    expect(await call('read-draft', { token, variant: 'sp' })).toEqual({
      status: 200,
      body: { draft: null, chat: null },
    });
    const other = await invited();
    expect((await call('read-draft', { token: other.token, variant: 'ip' })).body).toEqual({
      draft: null,
      chat: null,
    });
    expect(
      (await call('read-draft', { token: `${token.slice(0, -2)}xx`, variant: 'ip' })).status,
    ).toBe(400);
    expect((await call('read-draft', { token, variant: 'zz' })).status).toBe(400);
    expect((await call('read-draft', { variant: 'ip' })).status).toBe(400);
  });

  it("assistant: a thread answers only its own user's token; bad and overlong input is a 4xx", async () => {
    const mine = await invited();
    const theirs = await invited();
    const thread = await call('initialize-thread', { token: mine.token });
    expect(thread.status).toBe(200);
    expect(thread.body.messages[0].bubbles[0]).toMatch(/^Hello, this is your Content Curator/);
    const threadId = thread.body.threadId as string;

    const other = await call('send-message', { token: theirs.token, threadId, message: 'hi' });
    expect(other.status).toBe(404);
    expect((await call('retrieve-clues', { token: theirs.token, threadId })).status).toBe(404);
    expect((await call('send-message', { token: 'forged', threadId, message: 'hi' })).status).toBe(
      403,
    );

    const long = await call('send-message', {
      token: mine.token,
      threadId,
      message: 'x'.repeat(1001),
    });
    expect(long).toMatchObject({
      status: 400,
      body: { error: { message: 'A message has at most 1,000 characters' } },
    });
    expect(
      (await call('send-message', { token: mine.token, threadId, message: '  ' })).status,
    ).toBe(400);
    expect((await call('send-message', { token: mine.token })).status).toBe(400);
    expect((await call('initialize-thread', 'not json')).status).toBe(400);
    expect((await call('initialize-thread', { token: mine.token }, 'text/plain')).status).toBe(415);
    expect((await call('initialize-thread', { token: 'x'.repeat(70_000) })).status).toBe(413);
    expect((await call('no-such-call', { token: mine.token })).status).toBe(404);

    const said = await call('send-message', {
      token: mine.token,
      threadId,
      message: 'I build lending protocols on Arbitrum',
    });
    expect(said.status).toBe(200);
    const clues = await call('retrieve-clues', { token: mine.token, threadId });
    expect(clues.status).toBe(200);
    expect(clues.body.clues).toContain('I build lending protocols on Arbitrum');
  });
});
