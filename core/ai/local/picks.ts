// Picking an audience's content card without a language model: the best-scored candidate leads,
// the next best that do not repeat it follow, and the headers and the descriptor are written from
// the audience's title and the stories' keyphrases. Deterministic: same candidates, same card.
import type { PickAnswer, PickCandidate } from '../tasks';
import { keyphrases, terms } from './text';

const SECONDARY_STORIES = 3;
/** Two titles sharing this share of their content words tell the same news. */
const SAME_NEWS = 0.6;
const DESCRIPTOR_CHARS = 200;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Keyphrases come lower-cased; the title's own spelling reads better ("DeFi", "Solana"). */
function asWritten(phrase: string, source: string): string {
  const pattern = new RegExp(phrase.split(' ').map(escape).join('\\s+'), 'i');
  return pattern.exec(source)?.[0] ?? phrase;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const shorter = text.slice(0, max - 1);
  const space = shorter.lastIndexOf(' ');
  return `${(space > max / 2 ? shorter.slice(0, space) : shorter).trimEnd()}…`;
}

/**
 * What a story is about in a few words: a phrase of several words from its title, else from its
 * summary, else the title's first keyphrase ("lending protocol" says more than "fee").
 */
function topicOf(candidate: PickCandidate): string {
  const found = [candidate.title, candidate.summary].map((source) => ({
    source,
    phrases: keyphrases(source),
  }));
  for (const { source, phrases } of found) {
    const phrase = phrases.find((p) => p.includes(' '));
    if (phrase) return cut(asWritten(phrase, source), 60);
  }
  const [first] = found;
  const single = first?.phrases[0];
  return cut(single ? asWritten(single, first.source) : candidate.title.trim() || 'this story', 60);
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function listed(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function stemsOf(title: string): Set<string> {
  return new Set(terms(title).map((term) => term.stem));
}

function sameNews(a: Set<string>, b: Set<string>): boolean {
  const shared = [...a].filter((stem) => b.has(stem)).length;
  const union = new Set([...a, ...b]).size;
  return union > 0 && shared / union >= SAME_NEWS;
}

function descriptor(topics: string[], audience: string): string {
  for (let count = Math.min(topics.length, 3); count >= 1; count--) {
    const shown = topics.slice(0, count);
    const verb = shown.length === 1 ? 'matters' : 'matter';
    const sentence = `Why ${listed(shown)} ${verb} to those who ${audience}.`;
    if (sentence.length <= DESCRIPTOR_CHARS) return sentence;
  }
  return cut(`Why ${topics[0]} matters to those who ${audience}.`, DESCRIPTOR_CHARS);
}

export function pickStories(input: { audience: string; candidates: PickCandidate[] }): PickAnswer {
  const ranked = input.candidates
    .map((candidate, index) => ({ candidate, index, stems: stemsOf(candidate.title) }))
    .sort((a, b) => b.candidate.score - a.candidate.score || a.index - b.index);
  const chosen: typeof ranked = [];
  for (const entry of ranked) {
    if (chosen.length > SECONDARY_STORIES) break;
    if (chosen.some((kept) => sameNews(kept.stems, entry.stems))) continue;
    chosen.push(entry);
  }
  const [primary, ...secondary] = chosen.map((entry) => entry.candidate);
  const audience = input.audience.trim();
  const topics = [primary!, ...secondary].map(topicOf);
  const otherTopics = topics.slice(1);
  const alsoOn = `Also on ${listed(otherTopics)}`;
  return {
    primaryId: primary!.id,
    secondaryIds: secondary.map((candidate) => candidate.id),
    primaryStoriesHeader: cut(`Top story: ${topics[0]}`, 120),
    secondaryStoriesHeader:
      otherTopics.length > 0 && alsoOn.length <= 120
        ? alsoOn
        : cut(`More for those who ${audience}`, 120),
    verbalDescriptor: capitalised(descriptor(topics, audience)),
  };
}
