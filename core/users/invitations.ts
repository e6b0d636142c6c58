// Invitations: an admin's HTML message with a link into the get-started funnel. The link carries
// a signed token for `{userId}.{invitationVersion}` (never the bare id) that expires in 14 days;
// sending another invitation bumps the version, which retires every earlier link.
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import { fn, freeText, trackingFrom, VisibleError } from '#core/common';
import { config } from '#core/config';
import { escapeHtml, plainText, sanitizeContent } from '#core/html';
import * as Outbox from '#core/outbox';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import { UserEntity } from './entity';
import { committed } from '#core/db';
import { byId, IdSchema, mustGet, type User } from './read';
import { readerEvent } from './events';

// A reader's e-mail goes out as queued: nothing to check before it or to settle with it.
Outbox.registerKind('invitation', {});

export const INVITATION_TTL_SECONDS = 14 * 24 * 3600;
export const INVITATION_LINK_INVALID = 'This invitation link is not valid or has expired';
/** What any invitation link of a reader who signed up says: they sign in now. */
export const INVITATION_ONBOARDED = 'You have already completed your profile. Please sign in.';
/** Invitations one admin may send in an hour: a slip (or a stolen session) cannot spam. */
export const INVITATIONS_PER_ADMIN: RateLimit.Limit = {
  bucket: 'invitations-admin',
  max: 50,
  windowSeconds: 3600,
};
export const INVITATION_MESSAGES = {
  bodyRequired: 'Please add the invitation text',
  bodyTooLong: 'The invitation text has at most 5,000 characters',
  landingRequired: 'Please add a landing page URL',
  inactive: 'This user is not active. Make them active before inviting them.',
  tooMany: 'Too many invitations sent. Please wait an hour and try again.',
} as const;

const landingOrigin = () => new URL(config().PUBLIC_URL).origin;
const wrongLanding = () => `The landing page URL must be a page of ${landingOrigin()}`;

/**
 * The house invitation the form starts from, for the admin to edit: a greeting by name and what
 * Cluefeed does. The e-mail adds its button, the link and the expiry below it.
 */
export function invitationTemplate(user: Pick<User, 'name'>): string {
  return [
    `<p>Hi ${escapeHtml(user.name)},</p>`,
    '<p>We would like you to try Cluefeed: web3 news picked for you, each story with a line on why it is there for you.</p>',
    '<p>Tell us in a few words what you build, research or follow, and your first stories will be waiting.</p>',
    '<p>The Cluefeed team</p>',
  ].join('\n');
}

/** Basic formatting and links; scripts, styles, event handlers and frames are dropped. */
export function sanitiseInvitationBody(html: string): string {
  return sanitizeContent(html, config().PUBLIC_URL);
}

/** A landing page of ours: same origin as PUBLIC_URL, http(s), no credentials. */
function isOwnPage(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.origin === landingOrigin() && !url.username && !url.password;
}

export const InviteInput = v.object({
  userId: IdSchema,
  body: v.pipe(
    freeText({
      max: 5_000,
      tooLong: INVITATION_MESSAGES.bodyTooLong,
      missing: INVITATION_MESSAGES.bodyRequired,
      lines: 'multi',
    }),
    v.check(
      (body) => plainText(sanitiseInvitationBody(body)) !== '',
      INVITATION_MESSAGES.bodyRequired,
    ),
  ),
  landingUrl: v.pipe(
    v.string(INVITATION_MESSAGES.landingRequired),
    v.trim(),
    v.nonEmpty(INVITATION_MESSAGES.landingRequired),
    v.maxLength(2000, () => wrongLanding()),
    v.check(isOwnPage, () => wrongLanding()),
  ),
});

/** The landing page with `user={token}` added (any `user` it already had is replaced). */
export function invitationLink(
  landingUrl: string,
  user: Pick<User, 'id'> & { invitationVersion: number },
): string {
  const link = new URL(landingUrl);
  const token = Tokens.sign(
    'invite',
    INVITATION_TTL_SECONDS,
    `${user.id}.${user.invitationVersion}`,
  );
  link.searchParams.set('user', token);
  return link.toString();
}

/**
 * Queues the invitation e-mail in the same write that bumps the user's invitation version (so
 * the previous link stops working exactly when the new one exists) and marks an Initial user
 * Invited. Counted against the sending admin's hourly limit. Every invitation sent is a new link,
 * so each records `invited` (keyed by its version), with the landing page's tracking values: the
 * campaign the link belongs to.
 */
export const invite = fn(
  v.object({ ...InviteInput.entries, actorId: v.pipe(v.string(), v.nonEmpty()) }),
  async ({ userId, body, landingUrl, actorId }) => {
    const user = await mustGet(userId);
    if (!user.isActive) throw new VisibleError('user.inactive', INVITATION_MESSAGES.inactive, 409);
    const attempt = await RateLimit.attempt(INVITATIONS_PER_ADMIN, actorId);
    if (!attempt.allowed) {
      throw new VisibleError('user.invitations_rate_limited', INVITATION_MESSAGES.tooMany, 429);
    }
    const current = user.invitationVersion ?? 0;
    const invitationVersion = current + 1;
    const at = new Date().toISOString();
    const status = user.status === 'Initial' ? 'Invited' : user.status;
    const email = Outbox.draft('invitation', {
      to: user.email,
      props: {
        name: user.name,
        bodyHtml: sanitiseInvitationBody(body),
        link: invitationLink(landingUrl, { id: user.id, invitationVersion }),
        expiresInDays: INVITATION_TTL_SECONDS / 86_400,
      },
    });
    const sent = await committed(
      createWriteTransaction(
        {
          users: UserEntity,
          outbox: Outbox.OutboundEmailEntity,
          event: Analytics.AnalyticsEventEntity,
        },
        ({ users, outbox, event }) => [
          users
            .patch({ id: user.id })
            .set({ invitationVersion, invitedAt: at, status, updatedAt: at })
            // A new invitation starts the funnel afresh: the old link's draft goes with it.
            .remove(['signupDraft', 'signupDraftRevision'])
            .where((attr, op) => op.eq(attr.invitationVersion, current))
            .commit(),
          outbox.create(email).commit(),
          event
            .create(
              readerEvent(
                trackingFrom(new URL(landingUrl).searchParams),
                {
                  name: 'invited',
                  key: `${user.id}:${invitationVersion}`,
                  path: '/admin-panel/user-management',
                },
                at,
              ),
            )
            .commit(),
        ],
      ),
    );
    if (!sent) {
      await attempt.release();
      throw new VisibleError(
        'user.changed',
        'Another invitation was just sent to this user. Please try again.',
        409,
      );
    }
    await Outbox.dispatch([email]);
    return { user: { ...user, invitationVersion, invitedAt: at, status, updatedAt: at }, email };
  },
);

/** Where a preview's link points: the landing page, with a stand-in where the token will be. */
const PREVIEW_TOKEN = 'preview';

/**
 * The invitation e-mail exactly as it would be sent to the user (subject and HTML), with a
 * stand-in token in its link; nothing is stored, signed or counted.
 */
export const previewInvitation = fn(InviteInput, async ({ userId, body, landingUrl }) => {
  const user = await mustGet(userId);
  const link = new URL(landingUrl);
  link.searchParams.set('user', PREVIEW_TOKEN);
  return Outbox.preview('invitation', {
    name: user.name,
    bodyHtml: sanitiseInvitationBody(body),
    link: link.toString(),
    expiresInDays: INVITATION_TTL_SECONDS / 86_400,
  });
});

const invalidLink = (status: 400 | 410) =>
  new VisibleError('user.invalid_invitation', INVITATION_LINK_INVALID, status);

/**
 * The user an invitation link names: refused (400) when the token is malformed, forged or for
 * another purpose, and (410) when it expired, a newer invitation replaced it, or the user was
 * deactivated. Any link we signed for a reader who has signed up (spent by the signup, replaced
 * or expired since) is a 409 that says so: its holder is that reader, and they sign in now.
 */
export async function fromInvitation(token: string | null | undefined, now = Date.now()) {
  const verified = Tokens.verify('invite', token, now);
  if (!verified.ok && verified.reason !== 'expired') throw invalidLink(400);
  const match = /^([0-9A-Z]{26})\.(\d{1,9})$/.exec(verified.subject ?? '');
  if (!match) throw invalidLink(400);
  const user = await byId(match[1]!);
  if (!user) throw invalidLink(400);
  if (!user.isActive) throw invalidLink(410);
  if (user.status === 'Onboarded') {
    throw new VisibleError('user.already_onboarded', INVITATION_ONBOARDED, 409);
  }
  if (!verified.ok || (user.invitationVersion ?? 0) !== Number(match[2])) throw invalidLink(410);
  return user;
}
