import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { config } from '#core/config';
import * as Outbox from '#core/outbox';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { createArticle } from '#tests/integration/factories';
import { action, loader } from './user-management';
import { action as previewAction } from './user-management.preview';

const PATH = '/admin-panel/user-management';
const origin = () => new URL(config().PUBLIC_URL).origin;
const email = () => `reader-${ulid().toLowerCase()}@example.org`;

type Answer = {
  data: { toast?: string; error?: string; field?: string; user?: { id: string } };
  init: { status?: number } | null;
};

/** The answer of an action, whether data() or a plain object, or the Response it threw. */
async function answerOf(run: () => Promise<unknown>): Promise<Answer & { thrown?: Response }> {
  try {
    const result = (await run()) as Answer | Answer['data'];
    return 'data' in result && 'init' in result
      ? (result as Answer)
      : { data: result as Answer['data'], init: null };
  } catch (thrown) {
    if (thrown instanceof Response) return { data: {}, init: { status: thrown.status }, thrown };
    throw thrown;
  }
}

async function post(form: Record<string, string>) {
  const { cookie } = await signedInAdmin();
  return answerOf(() =>
    action({ request: adminPost(PATH, form, cookie), params: {}, context: {} }),
  );
}

describe('user management guard', () => {
  it('sends a visitor without a session to sign-in, and refuses a POST from another site', async () => {
    const page = await answerOf(() =>
      loader({ request: new Request(new URL(PATH, origin())), params: {}, context: {} }),
    );
    expect(page.init?.status).toBe(302);
    expect(page.thrown?.headers.get('Location')).toBe(
      `/admin-panel/authorize?returnUrl=${encodeURIComponent(PATH)}`,
    );

    const { cookie } = await signedInAdmin();
    const request = adminPost(PATH, { intent: 'add', name: 'X', email: email() }, cookie);
    request.headers.set('Origin', 'https://evil.example');
    expect((await answerOf(() => action({ request, params: {}, context: {} }))).init?.status).toBe(
      403,
    );
  });
});

describe('user management actions', () => {
  it('adds a user with the spec toast, and refuses the same e-mail again with a 409', async () => {
    const address = email();
    const added = await post({
      intent: 'add',
      name: 'Ada Lovelace',
      email: address,
      isActive: 'on',
    });
    expect(added.data).toMatchObject({ toast: 'User Ada Lovelace added successfully' });
    expect(await Users.byEmail(address)).toMatchObject({ name: 'Ada Lovelace', isActive: true });

    const again = await post({ intent: 'add', name: 'Other', email: address.toUpperCase() });
    expect(again.init?.status).toBe(409);
    expect(again.data).toMatchObject({
      error: 'A user with this email already exists',
      field: 'email',
    });
  });

  it('answers bad input with the form messages and a 400, never a 500', async () => {
    const user = await Users.create({ name: 'Bea', email: email() });
    const cases: [Record<string, string>, string, number][] = [
      [{ intent: 'add', name: '', email: email() }, 'Please add a name', 400],
      [{ intent: 'add', name: 'Bea' }, 'Please add an email', 400],
      [
        { intent: 'add', name: 'Bea', email: email(), status: 'Boss' },
        'Please choose a status',
        400,
      ],
      [{ intent: 'edit', id: user.id, name: ' ' }, 'Please add a name', 400],
      [{ intent: 'edit', id: 'x'.repeat(500), name: 'Bea' }, 'This user does not exist', 404],
      [{ intent: 'invite', id: user.id, body: '<p>Hi</p>' }, 'Please add a landing page URL', 400],
      [{ intent: 'launch' }, 'This action is not known', 400],
    ];
    for (const [form, message, status] of cases) {
      const answer = await post(form);
      expect(answer.init?.status, JSON.stringify(form)).toBe(status);
      expect(answer.data.error).toBe(message);
    }
    expect(await Users.byId(user.id)).toMatchObject({ name: 'Bea', invitationVersion: 0 });
  });

  it('edits name, status and active flag with the spec toast; the e-mail stays', async () => {
    const user = await Users.create({ name: 'Cy', email: email() });
    const edited = await post({
      intent: 'edit',
      id: user.id,
      name: 'Cyrus',
      email: 'changed@example.org',
      status: 'Verified',
    });
    expect(edited.data).toMatchObject({ toast: 'User Cyrus updated successfully' });
    expect(await Users.byId(user.id)).toMatchObject({
      name: 'Cyrus',
      email: user.email,
      status: 'Verified',
      isActive: false,
    });
  });

  it('sends an invitation to a chosen variant, and refuses a landing page on another site', async () => {
    const user = await Users.create({ name: 'Di', email: email() });
    const elsewhere = await post({
      intent: 'invite',
      id: user.id,
      body: '<p>Join us</p>',
      landingUrl: 'https://evil.example/get-started',
    });
    expect(elsewhere.init?.status).toBe(400);
    expect(elsewhere.data).toMatchObject({
      error: `The landing page URL must be a page of ${origin()}`,
      user: { id: user.id },
    });

    const sent = await post({
      intent: 'invite',
      id: user.id,
      body: '<p>Join us</p>',
      variant: 'ip',
    });
    expect(sent.data).toMatchObject({ toast: `Invitation sent successfully to ${user.email}` });
    const [queued] = (await Outbox.recent({ limit: 50 })).filter(({ to }) => to === user.email);
    const link = new URL((JSON.parse(queued!.props) as { link: string }).link);
    expect(`${link.origin}${link.pathname}`).toBe(`${origin()}/get-started`);
    expect(link.searchParams.get('vus')).toBe('ip');
    expect((await Users.fromInvitation(link.searchParams.get('user'))).id).toBe(user.id);
  });

  it('answers a page link that is not valid with a message instead of a 500', async () => {
    const { cookie } = await signedInAdmin();
    const request = new Request(new URL(`${PATH}?cursor=garbage`, origin()), {
      headers: { Cookie: cookie },
    });
    const page = (await loader({ request, params: {}, context: {} })) as { error?: string };
    expect(page.error).toBe('This page link is not valid. Please start from the first page.');
  });
});

describe('invitation preview', () => {
  it('renders the e-mail without scripts under a policy that runs nothing', async () => {
    const { cookie } = await signedInAdmin();
    const user = await Users.create({ name: 'Eli', email: email() });
    const request = adminPost(
      `${PATH}/preview`,
      {
        id: user.id,
        body: '<p>Welcome <b>aboard</b></p><script>alert(1)</script>',
        landingUrl: `${origin()}/get-started?vus=sp`,
      },
      cookie,
    );
    const response = await previewAction({ request, params: {}, context: {} });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('Welcome <b>aboard</b>');
    expect(html).not.toContain('<script');
    expect(await Users.byId(user.id)).toMatchObject({ invitationVersion: 0 });

    const missing = adminPost(`${PATH}/preview`, { id: user.id, body: '<p>x</p>' }, cookie);
    const refused = await previewAction({ request: missing, params: {}, context: {} });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Please add a landing page URL');
  });
});

/** The page as the admin's browser gets it at `query`. */
async function pageAt(query: string) {
  const { cookie } = await signedInAdmin();
  const request = new Request(new URL(`${PATH}${query}`, origin()), {
    headers: { Cookie: cookie },
  });
  return (await loader({ request, params: {}, context: {} })) as Awaited<ReturnType<typeof loader>>;
}

describe("a reader's edit shows what their feed is made from", () => {
  it('their clues, their scored articles best first, and how many carry each label', async () => {
    const user = await Users.create({ name: 'Fay', email: email() });
    await Users.setDescriptors(user.id, ['build DeFi protocols', 'audit lending markets']);
    const reader = Scoring.userTarget((await Users.byId(user.id))!);
    const article = await createArticle({ title: 'Lending invariants to fuzz before launch' });
    await Scoring.scoreArticle(article, [reader], await Scoring.defaultSetup(ulid()));
    const {
      scores: [stored],
    } = await Scoring.forReader((await Users.byId(user.id))!);

    const page = await pageAt(`?edit=${user.id}`);

    expect(page.editing?.id).toBe(user.id);
    expect(page.reader?.clues.map(({ clue }) => clue)).toEqual([
      'build DeFi protocols',
      'audit lending markets',
    ]);
    expect(page.reader?.scores).toEqual([
      {
        articleId: article.id,
        title: 'Lending invariants to fuzz before launch',
        source: 'Protocol Review',
        publishedAt: article.publishedAt,
        label: stored!.label,
        relevantClues: stored!.relevantClues,
      },
    ]);
    expect(page.reader?.counts[stored!.label]).toBe(1);
    expect(Object.values(page.reader!.counts).reduce((sum, n) => sum + n, 0)).toBe(1);
  });

  it('nothing for a reader who gave no clues, and nothing when no edit is open', async () => {
    const user = await Users.create({ name: 'Gus', email: email() });
    expect((await pageAt(`?edit=${user.id}`)).reader).toEqual({
      clues: [],
      counts: {
        'Not Relevant': 0,
        'Slightly Relevant': 0,
        'Moderately Relevant': 0,
        'Quite Relevant': 0,
        'Very Relevant': 0,
      },
      scores: [],
      shown: Scoring.READER_SCORES_SHOWN,
    });
    expect((await pageAt('')).reader).toBeUndefined();
  });
});

describe('the invitation starts from the house template', () => {
  it('greets the user by name (escaped), and sent as it is, it is the e-mail', async () => {
    const user = await Users.create({ name: 'Zoë <b>', email: email() });
    const page = await pageAt(`?invite=${user.id}`);
    expect(page.invitationBody).toContain('<p>Hi Zoë &lt;b&gt;,</p>');
    expect(page.invitationBody).toContain('Cluefeed');

    const sent = await post({
      intent: 'invite',
      id: user.id,
      body: page.invitationBody!,
      variant: 'default',
    });
    expect(sent.data).toMatchObject({ toast: `Invitation sent successfully to ${user.email}` });
    const [queued] = (await Outbox.recent({ limit: 50 })).filter(({ to }) => to === user.email);
    expect((JSON.parse(queued!.props) as { bodyHtml: string }).bodyHtml).toBe(
      Users.sanitiseInvitationBody(page.invitationBody!),
    );
    expect((await pageAt('')).invitationBody).toBeUndefined();
  });
});

describe('the landing pages an invitation offers', () => {
  it('are named in words, each with what it is, and no URL parameter in its name', async () => {
    const user = await Users.create({ name: 'Landing Reader', email: email() });
    const { variants } = await pageAt(`?invite=${user.id}`);
    expect(variants.map(({ id, label }) => [id, label])).toEqual([
      ['default', 'Default'],
      ['sp', 'Show pointers'],
      ['ip', 'Interactive prompt'],
    ]);
    for (const variant of variants) {
      expect(variant.label).not.toMatch(/vus=/);
      expect(variant.description.length).toBeGreaterThan(20);
    }
    expect(variants.find(({ id }) => id === 'sp')?.url).toMatch(/\/get-started\?vus=sp$/);
  });
});
