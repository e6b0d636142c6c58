// Local audience-name assessment: a clue is insightful when it names topics narrowly. Specificity
// is the sum of its content words' rarity (BM25 IDF, scaled 0..1) weighted by part of speech, so
// "crypto" is broad, "build DeFi protocols" moderate and "build DeFi lending protocols on
// Ethereum L2s" specific. Suggestions make the reader's own words more specific with words of
// the closest background lines, i.e. the topics people who write like this usually mean
// (suggestions.ts): a grammatical extension of the descriptor, or none.
import type { AssessmentAnswer, AssessmentScore } from '../tasks';
import { backgroundTerms, idfWithDocument } from './bm25';
import { moreSpecific } from './suggestions';
import { terms, topicWeight } from './text';

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
  const { idf, maxIdf: top } = idfWithDocument(words.map((t) => t.stem));
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
  const starter = [input.prefix, input.pointer ?? ''].join(' ');
  const suggestions = moreSpecific(
    input.audienceName,
    starter,
    closest.map(({ index }) => index),
  );
  return { score, reasoning, suggestions };
}
