// One story of the reader's feed: image (unless hidden), title linking to the story, source and
// date, the excerpt, its rating and why it is there (the clues it matched, in the reader's own
// words), and like / dislike. A like or dislike opens a banner under the story with the spec's
// chips: 'Let me chat with the assistant' opens the side panel on that story's conversation;
// another chip adds its text as a clue.
import { Link, useFetcher } from '@remix-run/react';
import type { FeedStory } from '#core/feed';
import type { ActionResult } from '#web/lib/feed.server';
import { FEEDBACK_BANNERS } from '#web/lib/feed-texts';

type Answer = ActionResult | { error: string; articleId?: string };
type Opened = Extract<ActionResult, { intent: 'feedback' }>;

const isFeedback = (result: Answer | undefined): result is Opened =>
  !!result && 'intent' in result && result.intent === 'feedback';
const isError = (result: Answer | undefined): result is { error: string } =>
  !!result && 'error' in result;

type Props = {
  story: FeedStory;
  showImages: boolean;
  /** The feed's URL with `thread=` set to a conversation: where a chat chip leads. */
  panelHref(threadId: string): string;
  /** What the page's own action answered (a form posted without JavaScript). */
  answered?: Answer;
};

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

export function StoryCard({ story, showImages, panelHref, answered }: Props) {
  const feedback = useFetcher<Answer>({ key: `feedback-${story.articleId}` });
  const chip = useFetcher<Answer>({ key: `chip-${story.articleId}` });
  const page =
    answered && 'articleId' in answered && answered.articleId === story.articleId
      ? answered
      : undefined;
  const opened = [feedback.data, page].find(isFeedback);
  const thanked = [chip.data, page].some(
    (result) => result && 'intent' in result && result.intent === 'add-clue',
  );
  const failed = [chip.data, feedback.data, page].find(isError)?.error;
  const pending = feedback.formData?.get('kind')?.toString();
  const state = pending ?? (opened ? opened.kind : story.feedback);
  const titleId = `story-${story.articleId}`;
  return (
    <li className="story-card" aria-labelledby={titleId}>
      {showImages && story.image && (
        <img
          className="story-card__image"
          src={story.image}
          alt=""
          loading="lazy"
          decoding="async"
        />
      )}
      <div className="story-card__body">
        <p className="story-card__meta">
          <span className="story-card__rating">{story.label}</span> <span>{story.source}</span> ·{' '}
          <time dateTime={story.publishedAt}>{dateFormat.format(new Date(story.publishedAt))}</time>
        </p>
        <h2 className="story-card__title" id={titleId}>
          <a href={story.link} rel="noopener noreferrer">
            {story.title}
          </a>
        </h2>
        <p className="story-card__excerpt">{story.excerpt}</p>
        {story.relevantClues.length > 0 ? (
          <p className="story-card__why">
            <strong>Why it is here:</strong> it matches your{' '}
            {story.relevantClues.length === 1 ? 'clue' : 'clues'}{' '}
            {story.relevantClues.map((clue, index) => (
              <span key={clue}>
                {index > 0 && (index === story.relevantClues.length - 1 ? ' and ' : ', ')}“{clue}”
              </span>
            ))}
          </p>
        ) : (
          story.reason && (
            <p className="story-card__why">
              <strong>Why it is here:</strong> {story.reason}
            </p>
          )
        )}
        <feedback.Form method="post" className="story-card__feedback" preventScrollReset>
          <input type="hidden" name="articleId" value={story.articleId} />
          <input type="hidden" name="intent" value="feedback" />
          <button
            type="submit"
            name="kind"
            value="like"
            className="button button--ghost button--small"
            aria-pressed={state === 'like'}
            disabled={feedback.state !== 'idle'}
          >
            Like<span className="visually-hidden"> “{story.title}”</span>
          </button>
          <button
            type="submit"
            name="kind"
            value="dislike"
            className="button button--ghost button--small"
            aria-pressed={state === 'dislike'}
            disabled={feedback.state !== 'idle'}
          >
            Dislike<span className="visually-hidden"> “{story.title}”</span>
          </button>
        </feedback.Form>
        {failed && (
          <div className="feed-banner feed-banner--error" role="alert">
            <p className="feed-banner__title">{FEEDBACK_BANNERS.errorTitle}</p>
            <p>{failed}</p>
          </div>
        )}
        {opened && !failed && (
          <div className="feed-banner" role="status">
            {thanked ? (
              <p className="feed-banner__title">{FEEDBACK_BANNERS.chipThanks}</p>
            ) : (
              <ul className="chips" aria-label="What would you like to do?">
                {opened.chips.map((text, index) =>
                  index === 0 ? (
                    <li key={text}>
                      <Link className="chip" to={panelHref(opened.threadId)} preventScrollReset>
                        {text}
                      </Link>
                    </li>
                  ) : (
                    <li key={text}>
                      <chip.Form method="post" preventScrollReset>
                        <input type="hidden" name="intent" value="add-clue" />
                        <input type="hidden" name="articleId" value={story.articleId} />
                        <input type="hidden" name="kind" value={opened.kind} />
                        <button
                          type="submit"
                          className="chip"
                          name="clue"
                          value={text}
                          disabled={chip.state !== 'idle'}
                        >
                          {text}
                        </button>
                      </chip.Form>
                    </li>
                  ),
                )}
              </ul>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
