// The key parts every score-store entity shares (ADR 0033): a target's partition, and the
// attributes that name what made an entry (target, clues' hash, prompt version, model).
export const MATCHING_TYPES = ['audience', 'user'] as const;

/** The keys a score, a failure and a count share: target, its clues' hash, prompt and model. */
export const setupAttributes = {
  matchingType: { type: MATCHING_TYPES, required: true },
  matchingId: { type: 'string', required: true },
  cluesHash: { type: 'string', required: true },
  promptId: { type: 'string', required: true },
  modelId: { type: 'string', required: true },
} as const;

export const targetPartition = {
  field: 'pk',
  composite: ['matchingType', 'matchingId'],
  template: 'scores#${matchingType}#${matchingId}',
  casing: 'none',
} as const;

export const COUNT_SHARDS = 4;

/** The counts attribute of each label. */
export const COUNT_OF = {
  'Not Relevant': 'notRelevant',
  'Slightly Relevant': 'slightlyRelevant',
  'Moderately Relevant': 'moderatelyRelevant',
  'Quite Relevant': 'quiteRelevant',
  'Very Relevant': 'veryRelevant',
} as const;
