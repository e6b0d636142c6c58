// Audience suggestions: 'Got ideas of your own?' — several audiences separated by commas.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import { fn, freeText, parseSuggestions, SUGGESTION_FORM_ERROR, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
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

/** The page each form is on, where its `audience_suggested` events happened. */
const FORM_PAGES = {
  'pre-success': '/subscribed-to-newsletter',
  'after-niches': '/subscribed-to-newsletter-suggestions',
} as const;

/**
 * Stores each suggested audience for the editors, each with its `audience_suggested` event in the
 * same transaction (keyed by the suggestion's id).
 */
export const suggest = fn(SuggestInput, async (input): Promise<AudienceSuggestion[]> => {
  const texts = parseSuggestions(input.text);
  if (!texts) throw new VisibleError('suggestion.invalid', SUGGESTION_FORM_ERROR, 400);
  const createdAt = new Date().toISOString();
  return Promise.all(
    texts.map(async (text) => {
      const suggestion: AudienceSuggestion = {
        id: ulid(),
        text,
        source: input.source,
        subscriberId: input.subscriberId,
        createdAt,
      };
      const written = await createWriteTransaction(
        { suggestion: AudienceSuggestionEntity, event: Analytics.AnalyticsEventEntity },
        (entities) => [
          entities.suggestion.create(suggestion).commit(),
          entities.event
            .create(
              Analytics.eventItem(
                {
                  name: 'audience_suggested',
                  key: suggestion.id,
                  path: FORM_PAGES[input.source],
                  text,
                },
                createdAt,
              ),
            )
            .commit(),
        ],
      ).go();
      // Fresh ids collide with nothing: a cancelled write is a fault of the table, not of input.
      if (written.canceled) throw new Error('A suggestion could not be stored');
      return suggestion;
    }),
  );
});

/** The newest suggestions first. */
export async function latest(limit: number): Promise<AudienceSuggestion[]> {
  const { data } = await AudienceSuggestionEntity.query.all({}).go({ order: 'desc', limit });
  return data;
}
