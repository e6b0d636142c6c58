// The structured tasks the product asks of a model. Each names its inputs (the placeholders a
// prompt may use come from them), the answer's schema, and the system message that fixes the
// answer's shape. The local provider has a method for each task by name (local/index.ts).
import * as v from 'valibot';
import type { AiTask, JsonSchema, Story } from './types';

export const RELEVANCE_LABELS = [
  'Not Relevant',
  'Slightly Relevant',
  'Moderately Relevant',
  'Quite Relevant',
  'Very Relevant',
] as const;
export type RelevanceLabel = (typeof RELEVANCE_LABELS)[number];

/** The label a 0..1 score falls in; every provider's score is read through the same bands. */
export function labelOf(score: number): RelevanceLabel {
  if (score < 0.15) return 'Not Relevant';
  if (score < 0.35) return 'Slightly Relevant';
  if (score < 0.55) return 'Moderately Relevant';
  if (score < 0.75) return 'Quite Relevant';
  return 'Very Relevant';
}

export const ASSESSMENT_SCORES = [
  'super insightful',
  'very insightful',
  'moderately insightful',
  'slightly insightful',
  'not insightful',
] as const;
export type AssessmentScore = (typeof ASSESSMENT_SCORES)[number];

/** The spec's score ranks: 0 not ranked, 1 very low to 5 very high. */
export const RANKS = ['NOT_RANKED', 'VERY_LOW', 'LOW', 'OK', 'HIGH', 'VERY_HIGH'] as const;
export type Rank = (typeof RANKS)[number];

/** The spec's mapping from score text to rank; anything unrecognised is VERY_LOW. */
export function rankOf(scoreText: string): Rank {
  switch (scoreText.trim().toLowerCase()) {
    case 'super insightful':
      return 'VERY_HIGH';
    case 'very insightful':
      return 'HIGH';
    case 'moderately insightful':
      return 'OK';
    case 'slightly insightful':
      return 'LOW';
    default:
      return 'VERY_LOW';
  }
}

/** A JSON-schema object in the form OpenAI's strict mode demands: every field required, no others. */
export function strictObject(properties: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const text = (description: string): JsonSchema => ({ type: 'string', description });
const texts = (description: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  description,
});

const Clue = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(300));
const Clues = v.pipe(v.array(Clue), v.minLength(1), v.maxLength(100));

export const ArticleInput = v.object({
  title: v.pipe(v.string(), v.maxLength(1000)),
  summary: v.pipe(v.string(), v.maxLength(20_000)),
  category: v.optional(v.string()),
  source: v.optional(v.string()),
});
export type ArticleInput = v.InferOutput<typeof ArticleInput>;

const RelevanceAnswer = v.object({
  label: v.picklist(RELEVANCE_LABELS),
  score: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  reason: v.pipe(v.string(), v.maxLength(1000)),
  relevantClues: v.array(v.string()),
});
export type RelevanceAnswer = v.InferOutput<typeof RelevanceAnswer>;

/** The shape of a reason, the same for every provider (the local one writes it, see local/reason.ts). */
const REASON_EXAMPLE =
  'It walks through a reentrancy exploit in a lending protocol, for your clue on smart ' +
  'contract audits.';

const relevanceProperties = {
  label: { type: 'string', enum: [...RELEVANCE_LABELS] },
  score: { type: 'number', description: '0 (unrelated) to 1 (exactly what the reader wants)' },
  reason: text(
    'One sentence the reader would write: what in the article matches, and which clue it serves ' +
      'with a short phrase of that clue (never whole clues), or that the article is outside ' +
      `their clues, e.g. '${REASON_EXAMPLE}'`,
  ),
  relevantClues: texts(
    'Every clue the article matches, copied exactly as given: at least one from Slightly ' +
      'Relevant up, none when Not Relevant',
  ),
};

const RELEVANCE_SYSTEM =
  'You rate how relevant a news article is to a reader described by clues (sentences the reader ' +
  'wrote about themselves). Judge the article only by its title and summary. Answer in the JSON ' +
  'schema given: a label, a score from 0 to 1 that agrees with the label, a reason and the clues ' +
  'it matches, copied exactly (at least one unless the label is Not Relevant). The reason is one ' +
  'sentence a reader would write: what the article says that matches, then the clue it serves ' +
  `named by a short phrase of that clue, never whole clues, e.g. '${REASON_EXAMPLE}' When it ` +
  "is not relevant, say it is outside the reader's clues and what it is about instead.";

/** One article against one reader's or audience's clues. */
export const articleRelevance: AiTask<{ article: ArticleInput; clues: string[] }, RelevanceAnswer> =
  {
    name: 'article-relevance',
    schemaName: 'article_relevance',
    system: RELEVANCE_SYSTEM,
    input: v.object({ article: ArticleInput, clues: Clues }),
    answer: RelevanceAnswer,
    jsonSchema: strictObject(relevanceProperties),
  };

const BatchAnswer = v.object({
  results: v.array(v.object({ audienceId: v.string(), ...RelevanceAnswer.entries })),
});
export type RelevanceBatchAnswer = v.InferOutput<typeof BatchAnswer>;

/** One article against several audiences in one call (fewer calls on a big scoring run). */
export const articleRelevanceBatch: AiTask<
  { article: ArticleInput; audiences: { id: string; clues: string[] }[] },
  RelevanceBatchAnswer
> = {
  name: 'article-relevance-batch',
  schemaName: 'article_relevance_batch',
  system:
    RELEVANCE_SYSTEM +
    ' Rate the article once for every audience listed, one result per audience id.',
  input: v.object({
    article: ArticleInput,
    audiences: v.pipe(
      v.array(v.object({ id: v.pipe(v.string(), v.nonEmpty()), clues: Clues })),
      v.minLength(1),
      v.maxLength(50),
    ),
  }),
  answer: BatchAnswer,
  jsonSchema: strictObject({
    results: {
      type: 'array',
      items: strictObject({ audienceId: text('The audience id as given'), ...relevanceProperties }),
    },
  }),
};

const AssessmentAnswer = v.object({
  score: v.string(),
  reasoning: v.pipe(v.string(), v.maxLength(2000)),
  suggestions: v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(10)),
});
export type AssessmentAnswer = v.InferOutput<typeof AssessmentAnswer>;

/** How well a clue (or an audience name) describes a reader narrowly enough to pick stories. */
export const audienceNameAssessment: AiTask<
  { prefix: string; pointer?: string; audienceName: string },
  AssessmentAnswer
> = {
  name: 'audience-name-assessment',
  schemaName: 'audience_name_assessment',
  system:
    'You judge how useful a self-description is for picking web3 news for that person. Answer ' +
    'in the JSON schema given: score is exactly one of ' +
    ASSESSMENT_SCORES.map((score) => `'${score}'`).join(', ') +
    '; reasoning is one or two sentences; suggestions are up to three more specific versions of ' +
    "the reader's own words that complete the same sentence starter: keep every word they wrote, " +
    "in order, and add specific ones where English puts them (for 'build DeFi protocols', 'build " +
    "DeFi lending protocols on Ethereum'); no suggestion when none reads well.",
  input: v.object({
    prefix: v.pipe(v.string(), v.trim(), v.maxLength(200)),
    pointer: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
    audienceName: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(300)),
  }),
  answer: AssessmentAnswer,
  jsonSchema: strictObject({
    score: { type: 'string', enum: [...ASSESSMENT_SCORES] },
    reasoning: text('Why this score, in one or two sentences'),
    suggestions: texts(
      "Up to three more specific versions of the reader's words, each completing the sentence",
    ),
  }),
};

const ClueChanges = v.object({
  cluesToBeAdded: v.array(v.string()),
  cluesToBeRemoved: v.array(v.string()),
  cluesToRemain: v.array(v.string()),
  mutesToBeAdded: v.array(v.string()),
  mutesToBeRemoved: v.array(v.string()),
});
export type ClueChanges = v.InferOutput<typeof ClueChanges>;

const StoryInput = v.object({
  title: v.pipe(v.string(), v.maxLength(1000)),
  source: v.pipe(v.string(), v.maxLength(1000)),
  summary: v.pipe(v.string(), v.maxLength(5_000)),
});

/** A topic the reader does not want ("Solana", "DAO treasury management"). */
const Mute = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(200));

/**
 * The clues a conversation with the assistant settled on (the spec's clues review), and the
 * topics the reader asked not to see (mutes) or to see again. `story` is the story a feedback
 * thread is about and `feedback` whether the reader liked it: the rendered prompt names them for
 * a language model, and the local provider reads them here.
 */
export const assistantClues: AiTask<
  {
    category: 'onboarding' | 'change_clues';
    currentClues: string[];
    currentMutes?: string[];
    story?: Story;
    feedback?: 'liked' | 'disliked';
  },
  ClueChanges
> = {
  name: 'assistant-clues',
  schemaName: 'assistant_clues',
  system:
    'From the conversation so far, list exactly what the reader asked for, nothing more. Clues ' +
    "are short first-person sentences such as 'I build DeFi protocols' or 'I care about oracle " +
    "risk', written cleanly (no 'please', no 'also'). List the new clues to add, the current " +
    'clues to remove and the current clues to keep, copying current clues exactly. When the ' +
    'reader drops or keeps only part of a clue ("drop the formal verification part"), remove the ' +
    "clue and add it rewritten ('I research smart contract security: audits, exploits and " +
    "formal verification' becomes 'I research smart contract security: audits and exploits'). " +
    'A topic the reader does not want ("stop showing me Solana", "no more X", "less about Y") ' +
    "is a mute: a short topic phrase such as 'Solana' or 'DAO treasury management', never a " +
    'clue; list new ones in mutesToBeAdded and the current mutes they want back in ' +
    'mutesToBeRemoved. Answer in the JSON schema given.',
  input: v.object({
    category: v.picklist(['onboarding', 'change_clues']),
    currentClues: v.pipe(v.array(Clue), v.maxLength(100)),
    currentMutes: v.optional(v.pipe(v.array(Mute), v.maxLength(100))),
    story: v.optional(StoryInput),
    feedback: v.optional(v.picklist(['liked', 'disliked'])),
  }),
  answer: ClueChanges,
  jsonSchema: strictObject({
    cluesToBeAdded: texts('New clues, each a short first-person sentence'),
    cluesToBeRemoved: texts('Current clues the reader no longer wants, copied exactly'),
    cluesToRemain: texts('Current clues to keep, copied exactly'),
    mutesToBeAdded: texts('Topics the reader asked not to see, each a short topic phrase'),
    mutesToBeRemoved: texts('Current mutes the reader wants to see again, copied exactly'),
  }),
};

const PickCandidate = v.object({
  id: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
  title: v.pipe(v.string(), v.maxLength(1000)),
  summary: v.pipe(v.string(), v.maxLength(5_000)),
  score: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
});
export type PickCandidate = v.InferOutput<typeof PickCandidate>;

const Header = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(120));

const PickAnswer = v.object({
  primaryId: v.pipe(v.string(), v.trim(), v.nonEmpty()),
  // Up to three are used; the caller drops extra or unknown ids rather than the whole answer.
  secondaryIds: v.pipe(v.array(v.pipe(v.string(), v.trim())), v.maxLength(20)),
  primaryStoriesHeader: Header,
  secondaryStoriesHeader: Header,
  verbalDescriptor: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(300)),
});
export type PickAnswer = v.InferOutput<typeof PickAnswer>;

/**
 * An audience's content card from its best scored articles: one primary story, up to three
 * secondary ones (by the candidates' ids), a header for each group and one sentence on why the
 * bundle matters to the audience. The caller checks the ids against its candidates.
 */
export const pickBestContent: AiTask<
  { audience: string; clues: string[]; candidates: PickCandidate[] },
  PickAnswer
> = {
  name: 'pick-best-content',
  schemaName: 'pick_best_content',
  system:
    'You are the editor of a web3 newsletter for one audience. From the numbered candidate ' +
    'articles (each with its id and relevance score) choose the one primary story and up to three ' +
    'secondary stories that together serve the audience best, without two stories on the same ' +
    'news. Answer in the JSON schema given, using only candidate ids as given: primaryId, ' +
    'secondaryIds (0 to 3, without the primary), a header of at most 8 words for the primary ' +
    'story and one for the secondary stories, and verbalDescriptor: one sentence of at most 200 ' +
    'characters on why this bundle matters to the audience.',
  input: v.object({
    audience: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(300)),
    clues: v.pipe(v.array(Clue), v.maxLength(100)),
    candidates: v.pipe(v.array(PickCandidate), v.minLength(1), v.maxLength(20)),
  }),
  answer: PickAnswer,
  jsonSchema: strictObject({
    primaryId: text('The id of the primary story, copied from the candidates'),
    secondaryIds: texts('Ids of up to three secondary stories, best first, without the primary'),
    primaryStoriesHeader: text('A short header for the primary story (at most 8 words)'),
    secondaryStoriesHeader: text('A short header for the secondary stories (at most 8 words)'),
    verbalDescriptor: text('One sentence (at most 200 characters) on why these stories matter'),
  }),
};

const StoryArticle = v.object({
  title: v.pipe(v.string(), v.maxLength(1000)),
  text: v.pipe(v.string(), v.maxLength(20_000)),
});

const StoryAnswer = v.object({
  title: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(300)),
  text: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(5_000)),
});
export type StoryAnswer = v.InferOutput<typeof StoryAnswer>;

/**
 * One story from a cluster of articles about the same event (the experiments' story
 * preprocessing): a title and a short text that says what happened, from the articles' texts.
 */
export const storyFromArticles: AiTask<
  { articles: v.InferOutput<typeof StoryArticle>[] },
  StoryAnswer
> = {
  name: 'story-from-articles',
  schemaName: 'story_from_articles',
  system:
    'You are a news editor. The articles given report the same event. Write the story once: a ' +
    'title of at most 15 words and a text of at most 120 words that says what happened, who is ' +
    'involved and why it matters, using only facts the articles state. Answer in the JSON schema ' +
    'given.',
  input: v.object({
    articles: v.pipe(v.array(StoryArticle), v.minLength(1), v.maxLength(50)),
  }),
  answer: StoryAnswer,
  jsonSchema: strictObject({
    title: text("The story's title (at most 15 words)"),
    text: text('What happened, who is involved and why it matters (at most 120 words)'),
  }),
};

export const TASKS = [
  articleRelevance,
  articleRelevanceBatch,
  audienceNameAssessment,
  assistantClues,
  pickBestContent,
  storyFromArticles,
] as const;
