// Local audience-name assessment: a clue is insightful when it names topics narrowly. Specificity
// is the sum of its content words' rarity (BM25 IDF, scaled 0..1) weighted by part of speech, so
// "crypto" is broad, "build DeFi protocols" moderate and "build DeFi lending protocols on
// Ethereum L2s" specific. Suggestions extend the clue with keyphrases from the closest background
// lines, i.e. the topics people who write like this usually mean.
import type { AssessmentAnswer, AssessmentScore } from '../tasks';
import { BACKGROUND } from './background';
import { backgroundTerms, bm25 } from './bm25';
import { keyphrases, terms, topicWeight } from './text';

const BANDS: [number, AssessmentScore][] = [
  [3.2, 'super insightful'],
  [2.3, 'very insightful'],
  [1.5, 'moderately insightful'],
  [0.8, 'slightly insightful'],
];

export function assessClue(input: {
  prefix: string;
  pointer?: string;
  audienceName: string;
}): AssessmentAnswer {
  const words = terms([input.pointer ?? '', input.audienceName].join(' '));
  const { idf, maxIdf: top } = bm25([words.map((t) => t.stem)]);
  const unique = new Map(words.map((t) => [t.stem, t]));
  const specificity = [...unique.values()].reduce(
    (sum, term) => sum + (idf(term.stem) / top) * topicWeight(term.pos),
    0,
  );
  const score = BANDS.find(([floor]) => specificity >= floor)?.[1] ?? 'not insightful';

  const topics = [...unique.values()].filter((t) => topicWeight(t.pos) >= 0.7).map((t) => t.word);
  const reasoning =
    unique.size === 0
      ? 'The description has no words that name a topic, so it cannot steer which stories you get.'
      : score === 'not insightful' || score === 'slightly insightful'
        ? `"${topics.join(' ') || input.audienceName}" is broad: most web3 news would fit it, so it narrows little.`
        : `It names ${topics.length} specific topic word(s) (${topics.join(', ')}), which lets us tell relevant stories from the rest.`;

  const stems = new Set(unique.keys());
  const closest = backgroundTerms()
    .map((line, index) => ({
      index,
      overlap: line.filter((t) => stems.has(t.stem)).reduce((s, t) => s + idf(t.stem), 0),
    }))
    .filter((line) => line.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap || a.index - b.index);
  const own = input.audienceName.toLowerCase();
  const suggestions = closest
    .flatMap(({ index }) => keyphrases(BACKGROUND[index]!))
    .filter((phrase) => !own.includes(phrase) && !phrase.split(' ').every((w) => own.includes(w)))
    .filter((phrase, i, all) => all.indexOf(phrase) === i)
    .slice(0, 3)
    .map((phrase) => `${input.audienceName}, especially ${phrase}`);
  return { score, reasoning, suggestions };
}
