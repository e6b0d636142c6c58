// One story of the reader's feed: image (unless hidden), title linking to the story, source and
// date, the excerpt, its rating and why it is there (the clues it matched, in the reader's own
// words), the other sources that tell it (and how many it gained lately), and like / dislike. The feedback's banner is the page's (FeedbackBanner): the story may
// move when the list is rebuilt, the banner stays. A disliked story leaves the list (ADR 0045):
// in its place, RemovedStory says so and offers Undo.
import { useFetcher } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import type { FeedStory } from '#core/feed';
import type { ActionResult } from '#web/lib/feed.server';
import { STORY_TEXTS } from '#core/common';
import { FEED_TEXTS } from '#web/lib/feed-texts';

/** The one fetcher every story's like / dislike posts through, and the banner reads. */
export const FEEDBACK_FETCHER = 'feedback';

type Props = { story: FeedStory; showImages: boolean; onDislike?(story: FeedStory): void };

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

export function StoryCard({ story, showImages, onDislike }: Props) {
  const feedback = useFetcher<ActionResult | { error: string }>({ key: FEEDBACK_FETCHER });
  const pending =
    feedback.formData?.get('articleId') === story.articleId
      ? feedback.formData.get('kind')?.toString()
      : undefined;
  const answered =
    feedback.data && 'intent' in feedback.data && feedback.data.intent === 'feedback'
      ? feedback.data
      : undefined;
  const state =
    pending ?? (answered?.articleId === story.articleId ? answered.kind : story.feedback);
  const titleId = `story-${story.articleId}`;
  const others = story.otherSourceCount;
  return (
    <li className="story-card" aria-labelledby={titleId}>
      {showImages && story.image && <StoryImage key={story.image} src={story.image} />}
      <div className="story-card__body">
        <p className="story-card__meta">
          <span className="story-card__rating">{story.label}</span> <span>{story.source}</span> ·{' '}
          <time dateTime={story.publishedAt}>{dateFormat.format(new Date(story.publishedAt))}</time>
          {others > 0 && (
            <>
              {' · '}
              <span id={`${titleId}-also`}>{STORY_TEXTS.alsoCoveredBy(others)}</span>
            </>
          )}
          {story.grewBy ? (
            <>
              {' · '}
              <strong className="story-card__updated">{STORY_TEXTS.updated(story.grewBy)}</strong>
            </>
          ) : null}
        </p>
        <h2 className="story-card__title" id={titleId}>
          <a href={story.link} rel="noopener noreferrer">
            {story.title}
          </a>
        </h2>
        <p className="story-card__excerpt">{story.excerpt}</p>
        {story.alsoCoveredBy.length > 0 && (
          <ul className="story-card__sources" aria-labelledby={`${titleId}-also`}>
            {story.alsoCoveredBy.map((other) => (
              <li key={other.link}>
                <a href={other.link} rel="noopener noreferrer">
                  {other.source}
                </a>
                : {other.title}
              </li>
            ))}
          </ul>
        )}
        {story.reason && (
          <p className="story-card__why">
            <strong>Why it is here:</strong> {story.reason}
          </p>
        )}
        <feedback.Form
          method="post"
          className="story-card__feedback"
          preventScrollReset
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter;
            if (submitter?.getAttribute('value') === 'dislike') onDislike?.(story);
          }}
        >
          <input type="hidden" name="articleId" value={story.articleId} />
          <input type="hidden" name="intent" value="feedback" />
          {(['like', 'dislike'] as const).map((kind) => (
            <button
              key={kind}
              type="submit"
              name="kind"
              value={kind}
              className="button button--ghost button--small"
              aria-pressed={state === kind}
              disabled={feedback.state !== 'idle'}
            >
              {kind === 'like' ? 'Like' : 'Dislike'}
              <span className="visually-hidden"> “{story.title}”</span>
            </button>
          ))}
        </feedback.Form>
      </div>
    </li>
  );
}

/**
 * A story's picture from its publisher's site. One that fails to load is taken out, so the story's
 * text takes its column (the card lays out an image beside its text only while there is one). It
 * may have failed before the page's script ran: that is checked once the image is on the page.
 */
function StoryImage({ src }: { src: string }) {
  const image = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const shown = image.current;
    if (shown?.complete && shown.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return null;
  return (
    <img
      ref={image}
      className="story-card__image"
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

/**
 * Where a disliked story was: it is out of the reader's stories, and Undo withdraws the dislike
 * (the story comes back). A form, so it works without JavaScript too.
 */
export function RemovedStory({
  story,
  onUndo,
}: {
  story: Pick<FeedStory, 'articleId' | 'title'>;
  onUndo?(): void;
}) {
  const feedback = useFetcher<ActionResult | { error: string }>({ key: FEEDBACK_FETCHER });
  return (
    <li className="story-card story-card--removed">
      <p className="story-card__removed">
        {FEED_TEXTS.removed} <span className="story-card__removed-title">{story.title}</span>
      </p>
      <feedback.Form method="post" preventScrollReset onSubmit={() => onUndo?.()}>
        <input type="hidden" name="intent" value="withdraw" />
        <input type="hidden" name="articleId" value={story.articleId} />
        <input type="hidden" name="kind" value="dislike" />
        <button type="submit" className="button button--small" disabled={feedback.state !== 'idle'}>
          {FEED_TEXTS.undo}
          <span className="visually-hidden"> your dislike of “{story.title}”</span>
        </button>
      </feedback.Form>
    </li>
  );
}
