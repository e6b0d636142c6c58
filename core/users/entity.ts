// User: an invited reader with an account (role USER), managed from the admin panel.
import { defineEntity } from '#core/db';

export const USER_STATUSES = ['Invited', 'Initial', 'Verified', 'Onboarded'] as const;

export const UserEntity = defineEntity({
  model: { entity: 'user', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** Trimmed and in its one spelling (`canonicalEmail`); unique through its UserEmail claim; never changed. */
    email: { type: 'string', required: true },
    status: { type: USER_STATUSES, required: true },
    isActive: { type: 'boolean', required: true },
    role: { type: 'number', required: true },
    descriptors: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          id: { type: 'string', required: true },
          clue: { type: 'string', required: true },
        },
      },
    },
    /** argon2id, set when the user chooses a password at the end of the funnel. */
    passwordHash: { type: 'string' },
    /** Bumped with every invitation sent: the link carries it, so older invitations stop working. */
    invitationVersion: { type: 'number', default: 0 },
    invitedAt: { type: 'string' },
    /**
     * The tracking values (core/common: utm, raud, vus) of the get-started URL the reader started
     * the funnel from, set with `funnelStartedAt`; the reader's analytics events carry them.
     */
    utm: { type: 'string' },
    raud: { type: 'string' },
    vus: { type: 'string' },
    /** The funnel's first step passed (Welcome's 'Start' or the verification): set once. */
    funnelStartedAt: { type: 'string' },
    /**
     * When the funnel's signup first completed (set once), and how (spec: the ip variant's thread
     * and time spent).
     */
    onboardedAt: { type: 'string' },
    onboardingThreadId: { type: 'string' },
    onboardingTimeSpentMs: { type: 'number' },
    /**
     * The get-started funnel's draft (JSON, core/users/signup-draft.ts) for the current
     * invitation, and its revision; removed by a new invitation and by the signup.
     */
    signupDraft: { type: 'string' },
    signupDraftRevision: { type: 'number' },
    /** When the reader's first scoring run finished and the 'newsfeed is ready' e-mail was queued. */
    feedReadyAt: { type: 'string' },
    /**
     * What the reader does not want (ADR 0045): "stop showing me X" (`mute`), "less about Y"
     * (`less`), and their newest dislikes (`less`, from `dislike`, naming the story). Changed
     * only with `cluesRevision`, in the same conditioned write as the clues.
     */
    mutes: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          id: { type: 'string', required: true },
          mute: { type: 'string', required: true },
          kind: { type: ['mute', 'less'] as const, required: true },
          from: { type: ['request', 'dislike'] as const, required: true },
          articleId: { type: 'string' },
          createdAt: { type: 'string', required: true },
        },
      },
    },
    /** Bumped with every change of `descriptors` or `mutes` from the feed: a change is conditioned on it. */
    cluesRevision: { type: 'number', default: 0 },
    /**
     * The reader's feed list now read (core/feed): its build id, stories per label (in the order of
     * RELEVANCE_LABELS), the clue set and setup it was built from, and when.
     */
    feedBuild: { type: 'string' },
    feedCounts: { type: 'list', items: { type: 'number' } },
    /** Where a page deep in a band starts: the order of every FEED_MARK_EVERY-th story of each band. */
    feedMarks: { type: 'list', items: { type: 'string' } },
    /** The build now rewriting the list (a ULID, so also when it began): one writes at a time. */
    feedWriting: { type: 'string' },
    /** How many scores the reader had when the list was built (the list holds the best 2,000). */
    feedScored: { type: 'number' },
    feedCluesHash: { type: 'string' },
    feedSetup: { type: 'string' },
    feedBuiltAt: { type: 'string' },
    /** Set by a change the feed list does not show yet (feedback, clues); removed by the build that shows it. */
    feedRequestedAt: { type: 'string' },
    /** The reader's first feed page load: set once. */
    firstFeedVisitAt: { type: 'string' },
    /** The last day (UTC, YYYY-MM-DD) the reader loaded their feed: set once a day. */
    lastActiveDay: { type: 'string' },
    /** The feed's image toggle (spec: persisted, default shown). */
    showImages: { type: 'boolean', default: true },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    // One user: pk user#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'user#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'user', casing: 'none' },
    },
    // Every user, newest first (User Management): gsi1pk users, gsi1sk {createdAt}#{id}
    newest: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'users', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});
