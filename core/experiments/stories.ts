// Stories: articles about the same event, grouped. Articles are embedded (title and summary) and
// clustered greedily, newest first: an article joins the story whose centroid it is nearest to
// when their cosine similarity reaches the threshold, else it starts a story of its own. The same
// articles, vectors and threshold always give the same stories.
import * as Ai from '#core/ai';

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
  const order = items
    .map((item, index) => ({ item, vector: vectors[index]! }))
    .sort(
      (a, b) =>
        b.item.publishedAt.localeCompare(a.item.publishedAt) || a.item.id.localeCompare(b.item.id),
    );
  const clusters: { members: Clusterable[]; sum: number[] }[] = [];
  for (const { item, vector } of order) {
    let best: (typeof clusters)[number] | undefined;
    let bestSimilarity = -1;
    for (const cluster of clusters) {
      const similarity = cosine(vector, cluster.sum);
      if (similarity > bestSimilarity) [best, bestSimilarity] = [cluster, similarity];
    }
    if (best && bestSimilarity >= threshold) {
      best.members.push(item);
      best.sum = best.sum.map((x, i) => x + (vector[i] ?? 0));
    } else {
      clusters.push({ members: [item], sum: [...vector] });
    }
  }
  return clusters.map(({ members }) => ({
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
