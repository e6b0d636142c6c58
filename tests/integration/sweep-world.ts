// Realistic data the sweeps and fuzzers run against: an active and an upcoming audience with a
// post and a card, a pending subscriber with every kind of link token, an admin with a session,
// and a non-admin system user with a session (which must not open the admin panel either).
import { createHash, randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import * as Auth from '#core/auth';
import * as Subscribers from '#core/subscribers';
import { adminCookie } from './route-call';
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
