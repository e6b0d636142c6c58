// The reader's feed (spec: Feed; ADR 0039): their stories, ranked for their clues, their
// feedback and what they do not want (ADR 0045), from a list built after each scoring run and
// each feedback, read a page at a time. What a reader does on it (a like or dislike and its Undo, a
// chip's clue, a review applied, a mute removed) is each one operation a route calls once.
export { FeedStoryEntity, FeedbackEntity, FEEDBACK_KINDS } from './entities';
export {
  buildFeed,
  needsBuild,
  excerptOf,
  setupName,
  EXCERPT_LENGTH,
  FEED_MAX_STORIES,
  FEEDBACK_WEIGHED,
  type BuildOutcome,
} from './build';
export {
  countsOf,
  defaultRatings,
  page,
  DEFAULT_RATINGS,
  FEED_MESSAGES,
  PAGE_LIMIT,
  PAGE_SIZE,
  PageInput,
  type FeedReader,
  type FeedStory,
} from './read';
export {
  giveFeedback,
  withdrawFeedback,
  FeedbackInput,
  FEEDBACK_LIMIT,
  FEEDBACK_MESSAGES,
  type Feedback,
  type Withdrawal,
} from './feedback';
export {
  addStoryClue,
  applyReview,
  changePreferences,
  unmute,
  UnmuteInput,
  PREFERENCE_MESSAGES,
} from './preferences';
export { answeredFeedback, type AnsweredFeedback } from './answered';
export { ALSO_COVERED_MAX, type OtherSource } from './story-entries';
export { judge, NAMED, SAME_EVENT, SAME_TOPIC } from './negative';
export { buildFeedJob, requestBuild } from './job';
export { adjustment, readingOrder, tasteOf, MAX_ADJUSTMENT } from './taste';
