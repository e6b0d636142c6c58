// Which stories a subscriber was sent, so an issue carries a story once and again only when it
// grew: read when the digest is composed, written with the Delivery (core/newsletter's
// send), conditioned on the version it was read at.
import { SentStoriesEntity } from './sent-stories-entity';

/** Entries kept per subscriber: the newest; a story sent before all of them may come again. */
export const SENT_STORIES_KEPT = 500;

export type SentStory = { storyId: string; sourceCount: number; sentAt: string };
/** What the subscriber was sent, at `version` (0: nothing yet, no item). */
export type SentStories = { version: number; stories: SentStory[] };

export const NOTHING_SENT: SentStories = { version: 0, stories: [] };

/** The subscriber's sent stories, read consistently: the send conditions on this version. */
export async function sentStoriesOf(subscriberId: string): Promise<SentStories> {
  const { data } = await SentStoriesEntity.get({ subscriberId }).go({ consistent: true });
  return data ? { version: data.version, stories: data.stories } : NOTHING_SENT;
}

/** Sources a story had when last sent, by story id. */
export function sourcesSent(sent: SentStories): Map<string, number> {
  return new Map(sent.stories.map((story) => [story.storyId, story.sourceCount]));
}

/** The stories kept once `stories` are sent now on top of `previous`: the newest first. */
export function sentAfter(
  previous: SentStories,
  stories: { storyId: string; sourceCount: number }[],
  sentAt: string,
): SentStory[] {
  const sentNow = new Set(stories.map((story) => story.storyId));
  return [
    ...stories.map(({ storyId, sourceCount }) => ({ storyId, sourceCount, sentAt })),
    ...previous.stories.filter((story) => !sentNow.has(story.storyId)),
  ].slice(0, SENT_STORIES_KEPT);
}
