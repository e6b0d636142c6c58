// When two reports tell the same event: the membership rule the production builder and the
// Experiments workbench share. A report is a profile: the local provider's content-word stems of
// its title and summary, each weighted by its part of speech and by how rare the word is in general
// English (the local word list's rank; a name it does not know counts as rarest), so the names and
// figures that tell one event from another weigh most. A report joins the story whose centroid
// (the sum of its members' profiles) is most similar, when that cosine reaches SAME_EVENT and the
// report is within STORY_WINDOW_HOURS of the story's members; else it starts a story of its own.
import * as Ai from '#core/ai';

/** The cosine from which two reports tell one event: picked on pairs.json (see quality.ts). */
export const SAME_EVENT = 0.34;
/** A story only gathers reports this close in time to its first and latest member. */
export const STORY_WINDOW_HOURS = 72;
const WINDOW_MS = STORY_WINDOW_HOURS * 3_600_000;
/** The rank given to a word the local word list lacks: rarer than any it has. */
const UNKNOWN_RANK = 200_000;
/** Stems a stored centroid keeps, the heaviest: enough to match, small enough to read in bulk. */
export const CENTROID_STEMS = 64;

/** Weights by stem. */
export type Profile = Record<string, number>;
export type Report = { title: string; summary?: string };

function normalised(profile: Profile): Profile {
  const norm = Math.hypot(...Object.values(profile));
  return norm === 0
    ? profile
    : Object.fromEntries(Object.entries(profile).map(([stem, w]) => [stem, w / norm]));
}

/** The profiles of these reports, in order (unit length, so a sum of them weighs each alike). */
export async function profilesOf(reports: readonly Report[]): Promise<Profile[]> {
  if (reports.length === 0) return [];
  const vectors = await Ai.wordVectors();
  return reports.map((report) => {
    const profile: Profile = {};
    for (const term of Ai.terms(`${report.title}\n${report.summary ?? ''}`.slice(0, 8_000))) {
      const rarity = Math.log(2 + (vectors.rank(term.word) ?? UNKNOWN_RANK));
      profile[term.stem] = (profile[term.stem] ?? 0) + Ai.topicWeight(term.pos) * rarity;
    }
    return normalised(profile);
  });
}

/** A dense vector (another model's embedding) as a profile, so the same rule can group it. */
export const profileOfVector = (vector: readonly number[]): Profile =>
  Object.fromEntries(vector.map((x, i) => [String(i), x]));

export function cosine(a: Profile, b: Profile): number {
  let dot = 0;
  for (const stem in a) dot += a[stem]! * (b[stem] ?? 0);
  const norms = Math.hypot(...Object.values(a)) * Math.hypot(...Object.values(b));
  return norms === 0 ? 0 : dot / norms;
}

export function plus(a: Profile, b: Profile): Profile {
  const sum = { ...a };
  for (const stem in b) sum[stem] = (sum[stem] ?? 0) + b[stem]!;
  return sum;
}

/** Whether a report published at `at` is near enough in time to a story's span to join it. */
export function withinWindow(at: string, span: { firstAt: string; latestAt: string }): boolean {
  const time = Date.parse(at);
  return (
    time >= Date.parse(span.firstAt) - WINDOW_MS && time <= Date.parse(span.latestAt) + WINDOW_MS
  );
}

/** A story as grouping sees it: its centroid, its span, and the reports joining it now. */
export type Forming<R> = {
  centroid: Profile;
  firstAt: string;
  latestAt: string;
  joining: R[];
};

/**
 * The rule, applied: each report, oldest first, joins the most similar story among `stories`
 * (those given, then those started here) or starts one. Answers every story, with who joined.
 */
export function group<R extends { id: string; publishedAt: string }, S extends Forming<R>>(
  reports: readonly { report: R; profile: Profile }[],
  stories: S[],
  start: (report: R, profile: Profile) => S,
  threshold = SAME_EVENT,
): S[] {
  const oldestFirst = [...reports].sort(
    (a, b) =>
      a.report.publishedAt.localeCompare(b.report.publishedAt) ||
      a.report.id.localeCompare(b.report.id),
  );
  for (const { report, profile } of oldestFirst) {
    const at = report.publishedAt;
    let best: S | undefined;
    let bestSimilarity = -Infinity;
    for (const story of stories) {
      if (!withinWindow(at, story)) continue;
      const similarity = cosine(profile, story.centroid);
      if (similarity >= threshold && similarity > bestSimilarity) {
        [best, bestSimilarity] = [story, similarity];
      }
    }
    if (!best) {
      stories.push(start(report, profile));
      continue;
    }
    best.joining.push(report);
    best.centroid = plus(best.centroid, profile);
    if (at < best.firstAt) best.firstAt = at;
    if (at > best.latestAt) best.latestAt = at;
  }
  return stories;
}

/** A centroid as stored: its heaviest stems, rounded. */
export function encodeCentroid(centroid: Profile): string {
  const kept = Object.entries(centroid)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]) || (a[0] < b[0] ? -1 : 1))
    .slice(0, CENTROID_STEMS)
    .map(([stem, w]) => [stem, Math.round(w * 1e4) / 1e4]);
  return JSON.stringify(Object.fromEntries(kept));
}

export const decodeCentroid = (stored: string): Profile => JSON.parse(stored) as Profile;
