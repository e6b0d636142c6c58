// The audience-suggestion form's rule, shared by the browser and the server.
export const SUGGESTION_FORM_ERROR = 'Please correct all errors to submit';
export const SUGGESTION_LIMITS = { audiences: 10, minLength: 3, maxLength: 120 } as const;
const { audiences: MAX_SUGGESTIONS, minLength, maxLength } = SUGGESTION_LIMITS;

/** Splits the form's text into audiences; undefined when any piece is empty, too short or too long. */
export function parseSuggestions(text: string): string[] | undefined {
  const pieces = text.split(',').map((piece) => piece.trim().replace(/\s+/g, ' '));
  const nonEmpty = pieces.filter((piece, index) => piece !== '' || index < pieces.length - 1);
  if (nonEmpty.length === 0 || nonEmpty.length > MAX_SUGGESTIONS) return undefined;
  if (nonEmpty.some((piece) => piece.length < minLength || piece.length > maxLength))
    return undefined;
  return nonEmpty;
}
