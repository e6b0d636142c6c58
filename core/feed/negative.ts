// What the reader does not want, applied to their stories before a build orders them (ADR 0045).
// The model's label says how well a story matches the clues; the shown label is lowered here:
// a disliked story goes to 'Not Relevant' (out of any ratings a reader picks above it), a story
// naming something the reader muted to 'Slightly Relevant' at most, one naming a "less about" one
// label down, and a story telling the same event as a recent dislike one label down. Weaker
// matches (the same topic as a dislike, close to a muted phrase) only sink within their label.
import * as Ai from '#core/ai';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import type * as Users from '#core/users';

/** A story names a muted phrase from this strength on (1: in its title). */
export const NAMED = 0.6;
/** A story this close to a disliked one tells the same event (another source's telling). */
export const SAME_EVENT = 0.6;
/** A story this close to a disliked one is on its topic: it sinks within its label. */
export const SAME_TOPIC = 0.3;
/** A disliked story is read after every other 'Not Relevant' one. */
const DISLIKED_SINK = 100;

const rank = (label: RelevanceLabel) => RELEVANCE_LABELS.indexOf(label);
const lower = (label: RelevanceLabel, steps: number) =>
  RELEVANCE_LABELS[Math.max(0, rank(label) - steps)]!;
const atMost = (label: RelevanceLabel, cap: RelevanceLabel) =>
  rank(label) > rank(cap) ? cap : label;

export type Judged = {
  label: RelevanceLabel;
  /** The model's label, when the reader's preferences changed it. */
  modelLabel?: RelevanceLabel;
  /** How far the story sinks within its label (0: not at all). */
  sink: number;
  /** Which of the reader's preferences lowered its label, in a sentence for its reason. */
  lowered?: string;
};

type Candidate = { articleId: string; label: RelevanceLabel; article: Ai.StoryText };

/**
 * Each story's shown label and sink, for the reader's mutes and dislikes. `disliked` holds every
 * story the reader disliked; `dislikedStories` the texts of the newest ones (the mutes from
 * dislikes), whose neighbours are lowered.
 */
export async function judge<T extends Candidate>(
  stories: T[],
  {
    mutes,
    disliked,
    dislikedStories,
  }: {
    mutes: Users.Mute[];
    disliked: ReadonlySet<string>;
    dislikedStories: Map<string, Ai.StoryText>;
  },
): Promise<(T & Judged)[]> {
  const requests = mutes.filter((mute) => mute.from === 'request');
  const neighbours = mutes.filter(
    (mute) => mute.from === 'dislike' && mute.articleId && dislikedStories.has(mute.articleId),
  );
  if (requests.length === 0 && neighbours.length === 0 && disliked.size === 0) {
    return stories.map((story) => ({ ...story, sink: 0 }));
  }
  const matching = await Ai.negativeMatching(await Ai.storedCorpus());
  const phrases = requests.map((mute) => ({ kind: mute.kind, phrase: matching.phrase(mute.mute) }));
  const dislikes = neighbours.map((mute) => ({
    articleId: mute.articleId!,
    story: matching.story(dislikedStories.get(mute.articleId!)!, mute.articleId),
  }));
  return stories.map((story) => {
    if (disliked.has(story.articleId)) {
      return {
        ...story,
        ...changed(story.label, 'Not Relevant'),
        sink: DISLIKED_SINK,
        lowered: 'You disliked this story.',
      };
    }
    // Nothing lowers a story below 'Not Relevant': it is left unread.
    if ((phrases.length === 0 && dislikes.length === 0) || story.label === 'Not Relevant') {
      return { ...story, sink: 0 };
    }
    const read = matching.story(story.article, story.articleId);
    let label: RelevanceLabel = story.label;
    let sink = 0;
    let lowered: string | undefined;
    for (const [index, { kind, phrase }] of phrases.entries()) {
      const strength = matching.strength(phrase, read);
      if (strength >= NAMED) {
        label =
          kind === 'mute' ? atMost(label, 'Slightly Relevant') : lowest(label, story.label, 1);
        sink += 2 * strength;
        const { mute } = requests[index]!;
        lowered ??=
          kind === 'mute' ? `You asked not to see ${mute}.` : `You asked for less about ${mute}.`;
      } else sink += strength;
    }
    for (const dislike of dislikes) {
      if (dislike.articleId === story.articleId) continue;
      const closeness = matching.closeness(dislike.story, read);
      if (closeness >= SAME_EVENT) {
        label = lowest(label, story.label, 1);
        lowered ??= 'It tells the same news as a story you disliked.';
      }
      if (closeness >= SAME_TOPIC) sink += closeness;
    }
    const shown = changed(story.label, label);
    return { ...story, ...shown, sink, ...(shown.modelLabel && lowered ? { lowered } : {}) };
  });
}

/** The lower of `label` and the model's label lowered `steps`: two matches never add up. */
const lowest = (label: RelevanceLabel, model: RelevanceLabel, steps: number) =>
  atMost(label, lower(model, steps));

const changed = (model: RelevanceLabel, label: RelevanceLabel) =>
  label === model ? { label } : { label, modelLabel: model };
