// The feed's stories, with the ones the reader disliked taken out (ADR 0045). A dislike takes the
// story out at once: its place says so and offers Undo, and it keeps that place (after the story
// it followed) when the rebuilt list no longer holds the story, until the reader changes page or
// ratings. Undo puts the card back at once; the rebuilt list then holds it again. Without
// JavaScript, the server's word is used: a story the reader disliked that the list still shows
// above 'Not Relevant' (not rebuilt yet) is shown taken out. A reader who chose 'Not Relevant'
// sees the rebuilt list's card there.
import { useFetcher } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import type { FeedStory } from '#core/feed';
import type { ActionResult } from '#web/lib/feed.server';
import { FEEDBACK_FETCHER, RemovedStory, StoryCard } from './story-card';

type Taken = { story: FeedStory; after: string | null; undone: boolean };

type Props = {
  stories: FeedStory[];
  showImages: boolean;
  /** The stories the reader disliked, as their record says. */
  disliked: string[];
  /** The story a dislike posted without JavaScript just took out (after its redirect). */
  justDisliked?: Pick<FeedStory, 'articleId' | 'title'> | null;
  /** Changes when the reader reads other ratings or another offset: what was taken out is forgotten. */
  view: string;
};

export function StoryList({ stories, showImages, disliked, justDisliked, view }: Props) {
  const feedback = useFetcher<ActionResult | { error: string; articleId?: string }>({
    key: FEEDBACK_FETCHER,
  });
  const [taken, setTaken] = useState<Record<string, Taken>>({});
  useEffect(() => {
    setTaken({});
  }, [view]);
  // A refused dislike puts the story back; a refused Undo takes it out again.
  useEffect(() => {
    const answer = feedback.data;
    if (!answer || !('error' in answer) || !answer.articleId) return;
    const id = answer.articleId;
    setTaken(({ [id]: entry, ...rest }) =>
      entry?.undone ? { ...rest, [id]: { ...entry, undone: false } } : rest,
    );
  }, [feedback.data]);

  const listed = new Set(stories.map((story) => story.articleId));
  const serverOut = new Set(disliked);
  const take = (story: FeedStory) => {
    const index = stories.findIndex((item) => item.articleId === story.articleId);
    const after = index > 0 ? stories[index - 1]!.articleId : null;
    setTaken((now) => ({ ...now, [story.articleId]: { story, after, undone: false } }));
  };
  const undo = (story: FeedStory) =>
    setTaken((now) => ({
      ...now,
      [story.articleId]: { story, after: now[story.articleId]?.after ?? null, undone: true },
    }));

  // A list that shows the story as 'Not Relevant' was rebuilt and the reader chose that rating:
  // the story is shown where the list puts it.
  const isOut = (story: FeedStory) => {
    const entry = taken[story.articleId];
    const out = entry ? !entry.undone : serverOut.has(story.articleId);
    return out && (!listed.has(story.articleId) || story.label !== 'Not Relevant');
  };
  const shown = (story: FeedStory) =>
    isOut(story) ? (
      <RemovedStory key={story.articleId} story={story} onUndo={() => undo(story)} />
    ) : (
      <StoryCard key={story.articleId} story={story} showImages={showImages} onDislike={take} />
    );
  // Stories taken out that the list no longer holds, in the place they were taken from.
  const placed = new Set([...listed, ...Object.keys(taken)]);
  const gone = Object.values(taken).filter((entry) => !listed.has(entry.story.articleId));
  const drawn = new Set<string>();
  const following = (after: string | null): ReactNode[] =>
    gone
      .filter((entry) => (entry.after && placed.has(entry.after) ? entry.after : null) === after)
      .filter((entry) => !drawn.has(entry.story.articleId) && !!drawn.add(entry.story.articleId))
      .flatMap((entry) => [shown(entry.story), ...following(entry.story.articleId)]);

  // Rebuilt already and not shown at these ratings: its place is at the top, with Undo.
  const justOut =
    justDisliked && !listed.has(justDisliked.articleId) && !taken[justDisliked.articleId]
      ? justDisliked
      : undefined;

  return (
    <ol className="feed__list" aria-label="Stories">
      {justOut && <RemovedStory key={justOut.articleId} story={justOut} />}
      {following(null)}
      {stories.flatMap((story) => [shown(story), ...following(story.articleId)])}
    </ol>
  );
}
