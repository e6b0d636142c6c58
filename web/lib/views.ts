// What public pages send to the browser: only the fields they show, so pages stay small and
// hydration data carries nothing the page does not need.
import type { ContentCardWithStories } from '#core/content-cards';
import type { Post } from '#core/posts';

export type StoryView = Pick<
  Post,
  'id' | 'slug' | 'title' | 'teaser' | 'minutes' | 'type' | 'cover' | 'reason'
> & {
  author: { name: string };
};

export function storyView(post: Post): StoryView {
  const { id, slug, title, teaser, minutes, type, cover, reason, author } = post;
  return { id, slug, title, teaser, minutes, type, cover, reason, author: { name: author.name } };
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
