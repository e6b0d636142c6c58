// Realistic data the sweeps and fuzzers run against: an active and an upcoming audience with a
// post and a card, a pending subscriber with every kind of link token, an admin with a session,
// and a non-admin system user with a session (which must not open the admin panel either);
// invited readers with a live invitation link and an assistant thread for the funnel's calls;
// two signed-in readers with a feed and an access token each, for the sweeps of readers' routes.
// Each sweep file runs on a table of its own, scanned after its last test for anything unreadable.
import { createHash, randomBytes } from 'node:crypto';
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { ulid } from 'ulid';
import { afterAll, expect } from 'vitest';
import * as Assistant from '#core/assistant';
import * as Auth from '#core/auth';
import { config } from '#core/config';
import { db } from '#core/db';
import * as ReaderTokens from '#core/reader-tokens';
import * as Subscribers from '#core/subscribers';
import * as Users from '#core/users';
import { useOwnTable } from './own-table';
import { readerWithFeed } from './readers';
import { adminCookie, readerCookie } from './route-call';
import { createAudience, createCard, createPost, uniqueSlug } from './factories';

export type SweepWorld = Awaited<ReturnType<typeof seedSweepWorld>>;

const PASSWORD = 'correct horse battery staple';

/** A system user with a live session; sign-in refuses non-admins, so their session is written. */
async function signedIn(role: 'ADMIN' | 'USER') {
  const userName = `sweep-${role.toLowerCase()}-${ulid().toLowerCase()}`;
  const user = await Auth.createSystemUser({
    userName,
    name: `Sweep ${role.toLowerCase()}`,
    password: PASSWORD,
    role: Auth.ROLES[role],
  });
  const token = randomBytes(32).toString('base64url');
  await Auth.SessionEntity.create({
    tokenHash: createHash('sha256').update(token).digest('hex'),
    systemUserId: user.id,
    createdAt: new Date().toISOString(),
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  }).go();
  return { userName, password: PASSWORD, cookie: await adminCookie(token) };
}

function tokenOf(link: string): string {
  return new URL(link).searchParams.get('subscriberHash') ?? '';
}

/** An invited reader, their invitation link's token and the onboarding thread the funnel opens. */
export async function invitedReader() {
  const user = await Users.create({
    name: 'Sweep Reader',
    email: `sweep-reader-${ulid().toLowerCase()}@example.org`,
    status: 'Invited',
  });
  const link = Users.invitationLink(`${config().PUBLIC_URL}/get-started`, {
    id: user.id,
    invitationVersion: user.invitationVersion ?? 0,
  });
  const thread = await Assistant.initializeThread({
    userId: user.id,
    category: 'onboarding',
    currentClues: [],
  });
  return {
    email: user.email,
    token: new URL(link).searchParams.get('user') ?? '',
    threadId: thread.threadId,
  };
}

/** A signed-in reader with one story in their feed and one access token, and what names them. */
async function readerWithEverything(name: string) {
  const reader = await readerWithFeed(['Very Relevant'], name);
  const { token, entry } = await ReaderTokens.create(reader.user.id, { name: `${name}'s script` });
  return {
    id: reader.user.id,
    email: reader.email,
    cookie: await readerCookie(reader.token),
    apiToken: token,
    tokenId: entry.id,
    tokenName: entry.name,
    articleId: reader.articles[0]!.id,
    storyTitle: reader.articles[0]!.title,
  };
}

export type SweepReader = Awaited<ReturnType<typeof readerWithEverything>>;

/** Two readers, each signed in with a feed and an access token: nothing of one opens to the other. */
export async function twoReaders(): Promise<{ a: SweepReader; b: SweepReader }> {
  const [a, b] = await Promise.all([
    readerWithEverything('Sweep Alice'),
    readerWithEverything('Sweep Bob'),
  ]);
  return { a, b };
}

export async function seedSweepWorld() {
  const audience = await createAudience();
  const upcoming = await createAudience({ slug: uniqueSlug('upcoming'), state: 'upcoming' });
  const post = await createPost(audience.id);
  const card = await createCard(audience.id, post.id);
  const { subscriber, assembleToken } = await Subscribers.subscribe({
    email: `sweep-${ulid().toLowerCase()}@example.org`,
    audienceId: audience.id,
  });
  const links = Subscribers.subscriberLinks(subscriber);
  const [admin, user] = await Promise.all([signedIn('ADMIN'), signedIn('USER')]);
  return {
    audience,
    upcoming,
    post,
    card,
    subscriber,
    tokens: {
      manage: Subscribers.manageToken(subscriber),
      confirm: tokenOf(links.confirmUrl),
      assemble: assembleToken ?? '',
    },
    admin,
    user,
    /** Values for dynamic segments, so routes reach past their 'not found'. */
    samples: { slug: audience.slug } as Record<string, string>,
  };
}

/**
 * What no stored string may hold, whatever a request sent: NUL, C0 and C1 controls, DEL, lone
 * surrogates and U+FFFD (what invalid UTF-8 decodes to). Line breaks and tabs are left to the
 * fields that keep them (multi-line texts, log lines).
 */
const UNREADABLE = /[^\P{Cc}\t\n]|[\p{Cs}\uFFFD]/u;

/** Every string in a stored attribute (lists, maps and sets included). */
function strings(value: AttributeValue): string[] {
  if (value.S !== undefined) return [value.S];
  if (value.SS) return value.SS;
  if (value.L) return value.L.flatMap(strings);
  if (value.M) return Object.values(value.M).flatMap(strings);
  return [];
}

/** Each stored item (counters and log lines included) with an unreadable string, as a line. */
export async function unreadableStored(): Promise<string[]> {
  const { client, table } = db();
  const found: string[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const bad = Object.values(item).some((value) =>
        strings(value).some((text) => UNREADABLE.test(text)),
      );
      if (bad) found.push(`${item.pk?.S} | ${item.sk?.S}: ${JSON.stringify(item)}`);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

/**
 * Gives the calling sweep file a table of its own and, after its last test, requires that
 * nothing any of its requests sent (NUL, controls, invalid UTF-8, lone surrogates) was stored.
 * Keys count: a counter keyed by what a request sent is stored text too.
 */
export function sweepTable(name: string): void {
  useOwnTable(`sweep-${name}`);
  afterAll(async () => {
    expect(await unreadableStored()).toEqual([]);
  });
}
