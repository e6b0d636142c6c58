// One entry per story in a reader's feed list (ADR 0063). Scores, labels and reasons are per
// article; a story's entry is led by its member the reader's reading order puts first, and carries
// the story's other sources, so a page shows them without another read. A story the reader
// disliked (any member) is one entry led by the disliked member, where a dislike puts it. A story
// that gained sources since the reader's list last held it is moved to the top of its band once,
// and says by how many.
import * as Stories from '#core/stories';

/** Most other outlets an entry lists (its count says how many there are in all). */
export const ALSO_COVERED_MAX = 10;
/** How long an entry keeps saying it grew, across later builds that do not move it. */
export const GROWTH_NOTE_MS = 24 * 60 * 60 * 1000;

export type OtherSource = { source: string; link: string; title: string };

/** What the reader's published list held of a story, to see whether it grew since. */
export type Listed = { sourceCount: number; grewBy?: number; grewAt?: string };

export type StoryFields = {
  storyId?: string;
  /** The story's articles, the entry's own included: it grows by each. */
  sourceCount: number;
  /** The other outlets that tell it ("also covered by N sources"). */
  otherSourceCount: number;
  alsoCoveredBy: OtherSource[];
  /** Sources the story gained since the reader's list held it (the note, and the move once). */
  grewBy?: number;
  grewAt?: string;
  /** It grew in this build, so it leads its band (once). */
  moved: boolean;
};

type Member = { articleId: string; band: number; position: number };

/**
 * The entries of a reader's list from their members in reading order (`ordered`, best first):
 * one per story, led as said above, renumbered within each band with the stories that grew first.
 * `disliked` names the articles the reader disliked (`storyOf` holds their stories too); a story
 * whose disliked member is not among `ordered` (no longer scored for them) is left out whole.
 */
export function storyEntries<T extends Member>(
  ordered: T[],
  storyOf: Map<string, Stories.Story>,
  {
    disliked,
    listed,
    now,
  }: { disliked: ReadonlySet<string>; listed: Map<string, Listed>; now: Date },
): (T & StoryFields)[] {
  const keyOf = (articleId: string) => storyOf.get(articleId)?.id ?? `article#${articleId}`;
  const leads = new Map<string, T>();
  for (const member of ordered) {
    const key = keyOf(member.articleId);
    // A disliked member leads its story wherever the order put it: the dislike's place and Undo.
    if (!leads.has(key) || disliked.has(member.articleId)) leads.set(key, member);
  }
  const dislikedStories = new Set([...disliked].map(keyOf));
  const entries = [...leads.entries()].flatMap(([key, lead]) =>
    dislikedStories.has(key) && !disliked.has(lead.articleId)
      ? []
      : [{ lead, ...fieldsOf(lead.articleId, storyOf.get(lead.articleId), listed, now) }],
  );
  // Grown stories first within their band, each band in reading order otherwise.
  const sorted = entries
    .map((entry, index) => ({ ...entry, index }))
    .sort(
      (a, b) => a.lead.band - b.lead.band || Number(b.moved) - Number(a.moved) || a.index - b.index,
    );
  const next = new Map<number, number>();
  return sorted.map(({ lead, fields, moved }) => {
    const position = next.get(lead.band) ?? 0;
    next.set(lead.band, position + 1);
    return { ...lead, ...fields, moved, position };
  });
}

/** The story's fields of an entry led by `articleId`, and whether it grew in this build. */
function fieldsOf(
  articleId: string,
  story: Stories.Story | undefined,
  listed: Map<string, Listed>,
  now: Date,
): { fields: Omit<StoryFields, 'moved'>; moved: boolean } {
  if (!story) {
    return { fields: { sourceCount: 1, otherSourceCount: 0, alsoCoveredBy: [] }, moved: false };
  }
  const outlets = Stories.otherOutlets(story, articleId);
  const fields = {
    storyId: story.id,
    sourceCount: story.sourceCount,
    otherSourceCount: outlets.length,
    alsoCoveredBy: outlets
      .slice(0, ALSO_COVERED_MAX)
      .map(({ source, link, title }) => ({ source, link, title })),
  };
  const before = listed.get(story.id);
  if (!before) return { fields, moved: false };
  if (story.sourceCount > before.sourceCount) {
    const grewBy = story.sourceCount - before.sourceCount;
    return { fields: { ...fields, grewBy, grewAt: now.toISOString() }, moved: true };
  }
  const noteKept =
    before.grewBy &&
    before.grewAt &&
    story.sourceCount === before.sourceCount &&
    now.getTime() - Date.parse(before.grewAt) < GROWTH_NOTE_MS;
  return {
    fields: noteKept ? { ...fields, grewBy: before.grewBy, grewAt: before.grewAt } : fields,
    moved: false,
  };
}
