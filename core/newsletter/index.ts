// Newsletter: one issue per subscriber, composed from the picks of the audiences they follow and
// rendered as an e-mail with a plain-text part. Sending it is the delivery path's job.
import { renderDigestEmail } from '#core/mail';
import type { Digest } from './digest';

export type {
  AlsoCovered,
  Digest,
  DigestAudience,
  DigestSection,
  DigestStory,
  EmptyDigest,
  Frequency,
} from './digest';
export {
  ALSO_COVERED_LINKS,
  composeDigest,
  reasonFor,
  ComposeOptions,
  CONTENT_WINDOW_NOT_VALID,
  PICKS_PER_AUDIENCE,
} from './compose';
export {
  countWords,
  fitToBudget,
  MIN_TEASER_WORDS,
  TEASER_WORDS,
  WORD_BUDGET,
  WORDS_PER_MINUTE,
} from './budget';

/** The footer's signed links: `Subscribers.subscriberLinks(subscriber)` gives them. */
export type DigestLinks = { preferencesUrl: string; unsubscribeUrl: string };

/** The issue as an e-mail: subject, HTML and its plain-text twin. */
export function renderDigest(digest: Digest, links: DigestLinks) {
  return renderDigestEmail({
    ...digest,
    preferencesUrl: links.preferencesUrl,
    unsubscribeUrl: links.unsubscribeUrl,
  });
}
export {
  deliveryOf,
  issueById,
  periodIssueId,
  periodOf,
  sendNewsletters,
  SendInput,
  SUBSCRIBERS_PER_CHUNK,
  WINDOW_MS,
  type Delivery,
  type NewsletterIssue,
} from './send';
export {
  cancelCampaign,
  CampaignWindow,
  checkCampaign,
  MAX_CAMPAIGN_AUDIENCES,
  MAX_SCHEDULE_DAYS,
  MAX_WINDOW_DAYS,
  newCampaignId,
  PreviewInput,
  previewCampaign,
  issuesCreatedBetween,
  recentIssues,
  scheduleCampaign,
  ScheduleInput,
  sendTest,
  startDueCampaigns,
  TestSendInput,
  type CampaignPreview,
} from './campaign';
export {
  NewsletterIssueEntity,
  ISSUE_ORIGINS,
  ISSUE_STATUSES,
  SKIP_COUNTS,
  type SkipReason,
} from './issue-entity';
export { closeSettledIssues } from './issue-close';
export { ScheduledSendEntity } from './scheduled-send-entity';
export { DeliveryEntity, DELIVERY_STATUSES } from './delivery-entity';
export {
  clickUrl,
  followClick,
  ClickInput,
  CLICK_LINK_TTL_SECONDS,
  INVALID_CLICK_LINK_MESSAGE,
  storyClicks,
  type ClickFrom,
  type Counted,
  type FollowedClick,
  type StoryClicks,
} from './clicks';
export { ClickEntity } from './click-entity';
export { StoryClicksEntity } from './story-clicks-entity';
export { SentStoriesEntity } from './sent-stories-entity';
export { SENT_STORIES_KEPT, sentStoriesOf, type SentStories } from './sent-stories';
