// What public pages send to the browser: only the fields they show, so pages stay small and
// hydration data carries nothing the page does not need.
import type { CardStory, ContentCardWithStories } from '#core/content-cards';
import type { Post } from '#core/posts';

export type StoryView = Pick<
  Post,
  'id' | 'slug' | 'title' | 'teaser' | 'minutes' | 'type' | 'cover' | 'reason'
> & {
  author: { name: string };
  /** On a card: the story the post belongs to, and its other sources. */
  storyKey?: string;
  alsoCovered?: CardStory['alsoCovered'];
};

export function storyView(post: Post | CardStory): StoryView {
  const { id, slug, title, teaser, minutes, type, cover, reason, author } = post;
  const story = 'storyKey' in post && {
    storyKey: post.storyKey,
    ...(post.alsoCovered && { alsoCovered: post.alsoCovered }),
  };
  return {
    id,
    slug,
    title,
    teaser,
    minutes,
    type,
    cover,
    reason,
    author: { name: author.name },
    ...story,
  };
}

export type CardView = Pick<
  ContentCardWithStories,
  'id' | 'date' | 'verbalDescriptor' | 'primaryStoriesHeader' | 'secondaryStoriesHeader'
> & { primaryStory: StoryView; secondaryStories: StoryView[] };

export function cardView(card: ContentCardWithStories): CardView {
  const { id, date, verbalDescriptor, primaryStoriesHeader, secondaryStoriesHeader } = card;
  return {
    id,
    date,
    verbalDescriptor,
    primaryStoriesHeader,
    secondaryStoriesHeader,
    primaryStory: storyView(card.primaryStory),
    secondaryStories: card.secondaryStories.map(storyView),
  };
}
