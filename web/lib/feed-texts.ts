// The feed's texts from the spec (§4 Feed feedback, §8), shared by its server and its components.
export const FEEDBACK_BANNERS = {
  errorTitle: 'There was a problem with your feedback :(',
  errorText:
    'Something went wrong on our side while trying to update your feed. Please try again later.',
  successTitle: 'Thank you for your feedback!',
  successClues:
    'We are updating your feed to take into account the new relevant clues. It will be ready soon, thank you for your patience!',
  successFeed: 'We are updating your feed. It will be ready soon, thank you for your patience!',
  chipThanks: 'Thank you for your feedback, it means a lot!',
} as const;

export const FEED_TEXTS = {
  title: 'Stories for you',
  subtitle: 'Picked based on the clues you shared',
  changeClues: 'I want to change some of my clues',
  cluesTitle: "Here are the clues you've given us",
  loadMore: 'Load more',
  updating: 'We are updating your feed. It will be ready soon, thank you for your patience!',
  noClues:
    'You have not given us any clues yet, so there is nothing to pick stories by. Tell the assistant what you do in web3 and your stories will follow.',
  picking:
    'Your stories are being picked. New stories are scored for your clues every 15 minutes, so check back soon.',
  noneWithRatings: 'No stories have these ratings yet. Choose more ratings above to see others.',
  mutesTitle: "What you don't want to see",
  mutesHint: 'Stories about these are moved down your feed. Remove one to see them as before.',
  removed: 'You disliked this story, so it is out of your stories:',
  undo: 'Undo',
} as const;

/** A chip's words for one of what the reader does not want (ADR 0045). */
export const MUTE_CHIPS = {
  mute: 'Not',
  less: 'Less',
  dislike: 'Less like',
} as const;
