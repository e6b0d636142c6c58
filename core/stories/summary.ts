// A story's headline and summary, written extractively by the local provider's story method: the
// lead member is the one whose title shares most words with all members (ties: the first listed,
// the newest), and the summary is the members' most central sentences, clipped to SUMMARY_CHARS.
import * as Ai from '#core/ai';

export const SUMMARY_CHARS = 300;

export type MemberText = { title: string; text: string };

const local = Ai.localProvider();
const GPT: Ai.AiModelRef = {
  id: Ai.aiModelId(Ai.LOCAL_MODELS.gpt.provider, Ai.LOCAL_MODELS.gpt.model),
  ...Ai.LOCAL_MODELS.gpt,
};

/** Cuts a text at the last sentence end (else word end) within `limit` characters. */
export function clip(text: string, limit = SUMMARY_CHARS): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed.length <= limit) return trimmed;
  const head = trimmed.slice(0, limit);
  const sentenceEnd = Math.max(
    head.lastIndexOf('. '),
    head.lastIndexOf('! '),
    head.lastIndexOf('? '),
  );
  if (sentenceEnd >= limit / 3) return head.slice(0, sentenceEnd + 1);
  const wordEnd = head.lastIndexOf(' ');
  return `${head.slice(0, wordEnd > 0 ? wordEnd : limit - 1)}…`;
}

/**
 * Sentences end at '.', '!' or '?' followed by a space and a capital, a digit or a quote: '$31.4'
 * and 'U.S. team' stay whole.
 */
const SENTENCE_END = /(?<=[.!?])\s+(?=["'“(]?[A-Z0-9])/;

/** Syndicated members repeat sentences word for word: each is said once. */
export function onceEach(text: string): string {
  const seen = new Set<string>();
  return text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter(
      (sentence) =>
        sentence && !seen.has(sentence.toLowerCase()) && seen.add(sentence.toLowerCase()),
    )
    .join(' ');
}

/** Headline and summary of members given newest first. */
export async function written(
  members: readonly MemberText[],
): Promise<{ headline: string; summary: string }> {
  if (members.length === 1) {
    const [only] = members;
    return { headline: only!.title, summary: clip(only!.text) };
  }
  const { answer } = await local.complete({
    model: GPT,
    task: Ai.storyFromArticles,
    input: { articles: members.slice(0, 50).map(({ title, text }) => ({ title, text })) },
    user: '',
  });
  return { headline: answer.title, summary: clip(onceEach(answer.text)) };
}
