// Audience suggestions: 'Got ideas of your own?' — several audiences separated by commas.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import { fn, freeText, parseSuggestions, SUGGESTION_FORM_ERROR, VisibleError } from '#core/common';
import { AudienceSuggestionEntity } from './entity';

export { AudienceSuggestionEntity };
export type AudienceSuggestion = EntityItem<typeof AudienceSuggestionEntity>;

export const SuggestInput = v.object({
  // A textarea whose line breaks become spaces: the pieces are shown on one line each.
  text: freeText({
    max: 2000,
    tooLong: SUGGESTION_FORM_ERROR,
    missing: SUGGESTION_FORM_ERROR,
    lines: 'collapse',
  }),
  source: v.picklist(['pre-success', 'after-niches']),
  subscriberId: v.optional(v.string()),
});

/** Stores each suggested audience for the editors. */
export const suggest = fn(SuggestInput, async (input): Promise<AudienceSuggestion[]> => {
  const texts = parseSuggestions(input.text);
  if (!texts) throw new VisibleError('suggestion.invalid', SUGGESTION_FORM_ERROR, 400);
  const createdAt = new Date().toISOString();
  return Promise.all(
    texts.map(async (text) => {
      const { data } = await AudienceSuggestionEntity.create({
        id: ulid(),
        text,
        source: input.source,
        subscriberId: input.subscriberId,
        createdAt,
      }).go();
      return data;
    }),
  );
});

/** The newest suggestions first. */
export async function latest(limit: number): Promise<AudienceSuggestion[]> {
  const { data } = await AudienceSuggestionEntity.query.all({}).go({ order: 'desc', limit });
  return data;
}
