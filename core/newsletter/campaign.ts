// Campaigns from the setup page: an issue with a content window, audiences and a frequency chosen
// by an admin, previewed as any subscriber would get it (campaign-preview), sent as a test to one
// address, then scheduled or sent now (campaign-schedule). A campaign is a NewsletterIssue with a
// ULID the form carries, so a double submit makes one campaign; it waits as a ScheduledSend until
// its time, and the every-minute schedule starts it with the same 'Send newsletters' job.
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import * as Audiences from '#core/audiences';
import { parse, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';
import { EmailSchema } from '#core/mail';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { composeDigest, CONTENT_WINDOW_NOT_VALID } from './compose';
import { digestProps, inertLinks } from './email';
import { NewsletterIssueEntity } from './issue-entity';
import { ScheduledSendEntity } from './scheduled-send-entity';
import { issueById, sendNewsletters, type NewsletterIssue } from './send';

/** The longest content window a campaign may have. */
export const MAX_WINDOW_DAYS = 31;
/** How far ahead a campaign may be scheduled. */
export const MAX_SCHEDULE_DAYS = 90;
/** Audiences one campaign may carry. */
export const MAX_CAMPAIGN_AUDIENCES = 50;
/** Scheduled campaigns started per run of the every-minute schedule. */
const DUE_PAGE = 25;

const DAY_MS = 86_400_000;

/** Whether the calendar has this day and the clock this time (Date.parse rolls 31 Feb over). */
function isRealMoment(value: string): boolean {
  const [, y, mo, d, h, mi] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value)!.map(Number);
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return (
    Number.isFinite(Date.parse(value)) &&
    day.getUTCMonth() === mo! - 1 &&
    day.getUTCDate() === d &&
    h! < 24 &&
    mi! < 60
  );
}

/** An ISO timestamp, or a `datetime-local` value (no zone: read as UTC). */
const Moment = (name: string) =>
  v.pipe(
    v.string(`${name} is required`),
    v.trim(),
    v.regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/,
      `${name} must be a date and time`,
    ),
    v.transform((value) => (/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`)),
    v.check(isRealMoment, `${name} must be a real date and time`),
    v.transform((value) => new Date(value).toISOString()),
  );

export const CampaignWindow = v.object({
  from: Moment('From'),
  to: Moment('To'),
  frequency: v.picklist(['daily', 'weekly'], 'The frequency is daily or weekly'),
  audienceIds: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(64)), 'Choose at least one audience'),
    v.minLength(1, 'Choose at least one audience'),
    v.maxLength(MAX_CAMPAIGN_AUDIENCES, `Choose at most ${MAX_CAMPAIGN_AUDIENCES} audiences`),
  ),
});
export type CampaignWindow = v.InferOutput<typeof CampaignWindow>;

const notValid = (reason: string) =>
  new VisibleError(CONTENT_WINDOW_NOT_VALID, `The content window is not valid: ${reason}`, 400);

/** The window and audiences, checked: a window that ends after it starts, active audiences. */
export async function checkCampaign(
  input: v.InferInput<typeof CampaignWindow>,
  now = Date.now(),
): Promise<CampaignWindow> {
  const campaign = parse(CampaignWindow, input);
  const from = Date.parse(campaign.from);
  const to = Date.parse(campaign.to);
  if (from >= to) throw notValid('"From" must be before "To".');
  if (from > now) throw notValid('"From" must not be in the future.');
  if (to - from > MAX_WINDOW_DAYS * DAY_MS)
    throw notValid(`it may span at most ${MAX_WINDOW_DAYS} days.`);
  const audienceIds = [...new Set(campaign.audienceIds)];
  const audiences = await Audiences.byIds(audienceIds);
  const active = audiences.filter((audience) => audience.state === 'active');
  if (active.length !== audienceIds.length)
    throw new VisibleError(
      'campaign.audiences_not_valid',
      'Choose active audiences only: one of these is not active or no longer exists',
      400,
    );
  return { ...campaign, audienceIds };
}

export const PreviewInput = v.object({
  subscriberEmail: v.pipe(v.string('Enter the address of a subscriber'), EmailSchema),
});

export type CampaignPreview = {
  subscriber: Pick<Subscribers.Subscriber, 'id' | 'email' | 'status'>;
  /** Why the send would skip them, if it would. */
  skipped?: string;
  email?: {
    subject: string;
    html: string;
    text: string;
    words: number;
    minutes: number;
    pastimes: string;
  };
};

/**
 * The issue the subscriber with this address would get from the campaign, rendered by the same
 * template the outbox sends (its footer links act on nobody), or why they would get none.
 */
export async function previewCampaign(
  campaign: CampaignWindow,
  input: v.InferInput<typeof PreviewInput>,
): Promise<CampaignPreview> {
  const { subscriberEmail } = parse(PreviewInput, input);
  const subscriber = await Subscribers.byEmail(subscriberEmail);
  if (!subscriber)
    throw new VisibleError('campaign.no_subscriber', 'No subscriber has this address', 404);
  const seen = { id: subscriber.id, email: subscriber.email, status: subscriber.status };
  const digest = await composeDigest(subscriber, campaign);
  if (digest.empty) return { subscriber: seen, skipped: digest.why };
  const mail = await Outbox.preview('digest', digestProps(digest, inertLinks()));
  return {
    subscriber: seen,
    skipped: subscriber.status === 'subscribed' ? undefined : subscriber.status,
    email: { ...mail, words: digest.words, minutes: digest.minutes, pastimes: digest.pastimes },
  };
}

export const TestSendInput = v.object({
  ...PreviewInput.entries,
  to: v.pipe(v.string('Enter the address to send the test to'), EmailSchema),
});

/**
 * Queues the subscriber's issue, marked as a test, to one address through the outbox; answers
 * the e-mail's id. It belongs to no issue and no subscriber: it counts nowhere.
 */
export async function sendTest(
  campaign: CampaignWindow,
  input: v.InferInput<typeof TestSendInput>,
): Promise<string> {
  const { subscriberEmail, to } = parse(TestSendInput, input);
  const subscriber = await Subscribers.byEmail(subscriberEmail);
  if (!subscriber)
    throw new VisibleError('campaign.no_subscriber', 'No subscriber has this address', 404);
  const digest = await composeDigest(subscriber, campaign);
  if (digest.empty)
    throw new VisibleError(
      'campaign.nothing_to_send',
      `This subscriber would get no issue (${digest.why}), so there is nothing to test`,
      409,
    );
  const props = digestProps(digest, inertLinks());
  const email = Outbox.draft('digest', {
    to,
    props: { ...props, subject: `[Test] ${props.subject}` },
  });
  await Outbox.OutboundEmailEntity.create(email).go();
  await Outbox.dispatch([email]);
  return email.id;
}

export const ScheduleInput = v.object({
  /** Made by the setup form when it is shown: a second submit finds the same campaign. */
  id: v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, 'The form is out of date; reload the page')),
  /** Absent: now. */
  sendAt: v.optional(Moment('Send at')),
  createdBy: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});

/** A new campaign id for the setup form. */
export const newCampaignId = () => ulid();

/**
 * Records the campaign as scheduled (now, or at `sendAt`) and starts it if its time has come;
 * answers the campaign. Scheduling the same id again answers the first campaign unchanged.
 */
export async function scheduleCampaign(
  campaign: CampaignWindow,
  input: v.InferInput<typeof ScheduleInput>,
  now = Date.now(),
): Promise<NewsletterIssue> {
  const { id, sendAt, createdBy } = parse(ScheduleInput, input);
  const at = sendAt ?? new Date(now).toISOString();
  if (Date.parse(at) < now - 60_000)
    throw new VisibleError('campaign.send_at_past', '"Send at" must not be in the past', 400);
  if (Date.parse(at) > now + MAX_SCHEDULE_DAYS * DAY_MS)
    throw new VisibleError(
      'campaign.send_at_too_late',
      `"Send at" must be within ${MAX_SCHEDULE_DAYS} days`,
      400,
    );
  const existing = await issueById(id);
  if (existing) return existing;
  const issue: NewsletterIssue = {
    id,
    origin: 'campaign',
    ...campaign,
    status: 'scheduled',
    sendAt: at,
    createdBy,
    createdAt: new Date(now).toISOString(),
  };
  try {
    const result = await createWriteTransaction(
      { issue: NewsletterIssueEntity, scheduled: ScheduledSendEntity },
      (entities) => [
        entities.issue.create(issue).commit(),
        entities.scheduled.create({ issueId: id, sendAt: at }).commit(),
      ],
    ).go();
    if (result.canceled) return (await issueById(id))!;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await issueById(id))!;
  }
  if (Date.parse(at) <= now) await start({ issueId: id, sendAt: at }, createdBy);
  return (await issueById(id))!;
}

/**
 * Starts one scheduled campaign: queues its send, then forgets the schedule. While another send
 * runs (one at a time) it stays scheduled and the next minute tries again; a start that dies
 * between the two leaves a second run, which finds every Delivery written and sends nothing twice.
 */
async function start(scheduled: { issueId: string; sendAt: string }, by: string) {
  let process: Jobs.Process;
  try {
    process = await Jobs.enqueue(sendNewsletters, { issueId: scheduled.issueId }, by);
  } catch (error) {
    if (error instanceof VisibleError && error.code === 'jobs.busy') return false;
    throw error;
  }
  await NewsletterIssueEntity.patch({ id: scheduled.issueId }).set({ processId: process.id }).go();
  await ScheduledSendEntity.delete(scheduled).go();
  return true;
}

/** The every-minute schedule: starts the campaigns whose time has come, oldest first. */
export async function startDueCampaigns(now = Date.now()): Promise<number> {
  const { data } = await ScheduledSendEntity.query
    .bySendAt({})
    .lt({ sendAt: new Date(now + 1).toISOString() })
    .go({ limit: DUE_PAGE });
  let started = 0;
  for (const scheduled of data) {
    const issue = await issueById(scheduled.issueId);
    if (!issue || issue.status !== 'scheduled') {
      await ScheduledSendEntity.delete(scheduled).go();
      continue;
    }
    if (!(await start(scheduled, 'scheduler'))) break;
    started += 1;
  }
  if (started > 0) logger.info(`Started ${started} scheduled campaign(s)`);
  return started;
}

/** Cancels a campaign that has not started; false when it already started (or never existed). */
export async function cancelCampaign(id: string): Promise<boolean> {
  const issue = await issueById(id);
  if (!issue || issue.status !== 'scheduled' || !issue.sendAt) return false;
  try {
    const result = await createWriteTransaction(
      { issue: NewsletterIssueEntity, scheduled: ScheduledSendEntity },
      (entities) => [
        entities.issue
          .patch({ id })
          .set({ status: 'cancelled', doneAt: new Date().toISOString() })
          .where((attr, op) => op.eq(attr.status, 'scheduled'))
          .commit(),
        entities.scheduled
          .delete({ issueId: id, sendAt: issue.sendAt! })
          .where((attr, op) => op.exists(attr.issueId))
          .commit(),
      ],
    ).go();
    return !result.canceled;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export const RecentIssuesInput = v.object({
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
});

/** The newest issues and campaigns with their figures: one Query of gsi1 `newsletterIssues`. */
export async function recentIssues(input: v.InferInput<typeof RecentIssuesInput> = {}) {
  const { limit } = parse(RecentIssuesInput, input);
  const { data } = await NewsletterIssueEntity.query.recent({}).go({ order: 'desc', limit });
  return data;
}

/**
 * The newest `limit` issues created in [from, to) (ISO times), newest first: one Query of gsi1
 * `newsletterIssues` between the two times (campaign analytics).
 */
export async function issuesCreatedBetween(from: string, to: string, limit: number) {
  const { data } = await NewsletterIssueEntity.query
    .recent({})
    .between({ createdAt: from }, { createdAt: to })
    .go({ order: 'desc', limit });
  return data.filter((issue) => issue.createdAt >= from && issue.createdAt < to);
}
