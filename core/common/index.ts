// Pieces every concept shares: validated operations, user-visible errors, e-mail, free-text and
// slug rules. Kept free of Node imports so the browser may use the validation rules too.
export { fn, parse } from './fn';
export { VisibleError, isVisibleError } from './visible-error';
export { isEmail, EMAIL_MESSAGES } from './email';
export { freeText, isReadable, TEXT_MESSAGES } from './text';
export { slugify } from './slug';
export {
  TRACKING_PARAMS,
  TrackingSchema,
  trackingFrom,
  withTracking,
  referrerWithoutTokens,
  type Tracking,
} from './tracking';
export { SUGGESTION_FORM_ERROR, SUGGESTION_LIMITS, parseSuggestions } from './suggestions';
export { mapPool } from './pool';
export { csvCell, csvText, type CsvValue } from './csv';
export {
  passwordProblem,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
} from './password';
export { STORY_TEXTS } from './story-texts';
export { isWebLink } from './web-link';
