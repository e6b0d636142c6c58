// A reader's feed list and their feedback on its stories (ADR 0039).
//
// The feed list is a materialised read model: one item per story, keyed by its place in the order
// the reader reads them (list-order.ts), rewritten by a build (build.ts) only where it changed and
// published by pointing the reader's record at the build; each item says which builds show it
// (ADR 0066). A page of the feed, at any offset and for any choice of ratings, is one or two
// bounded Queries of it: opening the feed never reads scores, never sorts and never calls a model.
import { RELEVANCE_LABELS } from '#core/ai';
import { defineEntity } from '#core/db';

export const FEEDBACK_KINDS = ['like', 'dislike'] as const;

export const FeedStoryEntity = defineEntity({
  model: { entity: 'feedStory', version: '1', service: 'cluefeed' },
  attributes: {
    userId: { type: 'string', required: true },
    /** Its place in the list (list-order.ts): band, then what orders the band, then its article. */
    order: { type: 'string', required: true },
    /** The build that put it at this place (a ULID): builds from this one on show it. */
    since: { type: 'string', required: true },
    /** The build that took it out: builds from this one on no longer show it (it is deleted then). */
    until: { type: 'string' },
    articleId: { type: 'string', required: true },
    title: { type: 'string', required: true },
    source: { type: 'string', required: true },
    link: { type: 'string', required: true },
    image: { type: 'string' },
    /** At most EXCERPT_LENGTH characters of the story, an ellipsis after a cut. */
    excerpt: { type: 'string', required: true },
    publishedAt: { type: 'string', required: true },
    /** The label shown: the model's, lowered by what the reader does not want (ADR 0045). */
    label: { type: RELEVANCE_LABELS, required: true },
    /** The model's label, when the reader's mutes or dislikes lowered it. */
    modelLabel: { type: RELEVANCE_LABELS },
    /** The reader's clues the story matched, as the reader wrote them. */
    relevantClues: { type: 'list', items: { type: 'string' }, default: () => [] },
    reason: { type: 'string' },
    /** The reader's feedback on it when the list was built. */
    feedback: { type: FEEDBACK_KINDS },
    /** The story the entry leads (ADR 0063); none on entries built before stories. */
    storyId: { type: 'string' },
    /** Every member of the story, the entry's own article included. */
    sourceCount: { type: 'number' },
    /** The other outlets that tell the story; none on entries built before outlets were counted. */
    otherSourceCount: { type: 'number' },
    /** The story's other members (at most ALSO_COVERED_MAX), newest first. */
    alsoCoveredBy: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          source: { type: 'string', required: true },
          link: { type: 'string', required: true },
          title: { type: 'string', required: true },
        },
      },
      default: () => [],
    },
    /** Sources the story gained since the reader's list last held it, and the build that saw it. */
    grewBy: { type: 'number' },
    grewAt: { type: 'string' },
  },
  indexes: {
    // A reader's feed list, in reading order: pk feed#{userId}, sk entry#{order}
    byPosition: {
      pk: { field: 'pk', composite: ['userId'], template: 'feed#${userId}', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['order'],
        template: 'entry#${order}',
        casing: 'none',
      },
    },
  },
});

export const FeedbackEntity = defineEntity({
  model: { entity: 'feedback', version: '1', service: 'cluefeed' },
  attributes: {
    userId: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
    kind: { type: FEEDBACK_KINDS, required: true },
    /** What the build weighs: the story's source and title (its topics), kept when it was given. */
    source: { type: 'string', required: true },
    title: { type: 'string', required: true },
    /** The article-feedback conversation it opened. */
    threadId: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    // A reader's feedback, one per story: pk feedback#{userId}, sk article#{articleId}
    byReader: {
      pk: { field: 'pk', composite: ['userId'], template: 'feedback#${userId}', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['articleId'],
        template: 'article#${articleId}',
        casing: 'none',
      },
    },
  },
});
