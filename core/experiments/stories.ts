// Stories: articles about the same event, grouped. Articles are embedded (title and summary) by
// the run's model and grouped by the production story builder's rule (Stories.group: oldest first,
// each joins the story whose centroid is most similar when the cosine reaches the threshold and it
// is within the story window, else it starts one), so an operator sees what production would do
// with these vectors. The same articles, vectors and threshold always give the same stories.
import * as Ai from '#core/ai';
import * as Stories from '#core/stories';

export type Story = {
  id: string;
  title: string;
  /** The articles' summaries joined: what scoring reads until a preprocessing step writes one. */
  summary: string;
  articleIds: string[];
  publishedAt: string;
};

type Clusterable = { id: string; title: string; summary: string; publishedAt: string };

/** Texts per embedding call. */
const EMBED_BATCH = 64;

export const embeddingText = (item: { title: string; summary: string }) =>
  `${item.title}\n${item.summary}`.slice(0, 8_000);

/** Embeds items (title and summary) in batches; answers their vectors and the calls' usage. */
export async function embedAll(
  items: { title: string; summary: string }[],
  model: Ai.AiModelRef,
): Promise<{ vectors: number[][]; usage: Ai.AiUsage; calls: number }> {
  const vectors: number[][] = [];
  let usage: Ai.AiUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 };
  let calls = 0;
  for (let start = 0; start < items.length; start += EMBED_BATCH) {
    const texts = items.slice(start, start + EMBED_BATCH).map(embeddingText);
    const answer = await Ai.ai().embed({ model, texts });
    vectors.push(...answer.vectors);
    usage = Ai.addUsage(usage, answer.usage);
    calls++;
  }
  return { vectors, usage, calls };
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

export function clusterByVectors(
  items: Clusterable[],
  vectors: number[][],
  threshold: number,
): Story[] {
  const grouped = Stories.group(
    items.map((item, index) => ({
      report: item,
      profile: Stories.profileOfVector(vectors[index]!),
    })),
    [],
    (item, profile) => ({
      centroid: profile,
      firstAt: item.publishedAt,
      latestAt: item.publishedAt,
      joining: [item],
    }),
    threshold,
  );
  return grouped
    .map(({ joining }) =>
      [...joining].sort(
        (a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.id.localeCompare(b.id),
      ),
    )
    .sort(
      (a, b) =>
        b[0]!.publishedAt.localeCompare(a[0]!.publishedAt) || a[0]!.id.localeCompare(b[0]!.id),
    )
    .map((members) => ({
      // Named by its newest article, so the same articles make the same story id.
      id: `story-${members[0]!.id}`,
      title: members[0]!.title,
      summary: members
        .map((member) => member.summary)
        .join('\n\n')
        .slice(0, 20_000),
      articleIds: members.map((member) => member.id),
      publishedAt: members[0]!.publishedAt,
    }));
}
