// The local provider's story: the articles' most central title, and the sentences that share most
// words with the whole cluster, in the order the articles give them (an extractive summary).
import type { StoryAnswer } from '../tasks';

const MAX_SENTENCES = 3;
const MAX_TEXT = 1_000;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];

function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? [])
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 20);
}

export function storyOf(articles: { title: string; text: string }[]): StoryAnswer {
  const frequency = new Map<string, number>();
  for (const article of articles) {
    for (const word of new Set(wordsOf(`${article.title} ${article.text}`))) {
      frequency.set(word, (frequency.get(word) ?? 0) + 1);
    }
  }
  const weight = (text: string) => {
    const words = wordsOf(text);
    if (words.length === 0) return 0;
    return words.reduce((sum, word) => sum + (frequency.get(word) ?? 0), 0) / words.length;
  };
  const title = articles
    .map((article, index) => ({ title: article.title.trim(), index }))
    .filter((candidate) => candidate.title)
    .sort((a, b) => weight(b.title) - weight(a.title) || a.index - b.index)[0]?.title;
  const sentences = articles.flatMap((article, articleIndex) =>
    sentencesOf(article.text).map((sentence, index) => ({
      sentence,
      order: articleIndex * 1_000 + index,
      weight: weight(sentence),
    })),
  );
  const chosen = [...sentences]
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.order - b.order)
    .map(({ sentence }) => sentence);
  const fallbackTitle = title ?? 'Untitled story';
  const text = (chosen.join(' ') || fallbackTitle).slice(0, MAX_TEXT);
  return { title: fallbackTitle.slice(0, 300), text };
}
