// The banner a like or dislike opens (spec: Feed feedback): its chips, the first 'Let me chat
// with the assistant' (the side panel on the story's conversation), each other one a clue to add;
// then 'Thank you for your feedback, it means a lot!'. A refusal shows the spec's error banner.
// The page owns it (the story may move or leave when the list is rebuilt), and it shows in flow
// under the story it is about while that story is on the page, so it never covers a story's text.
import { useEffect, useState, type ReactElement } from 'react';
import { createPortal } from 'react-dom';
import { Link, useFetcher } from '@remix-run/react';
import type { ActionResult } from '#web/lib/feed.server';
import { FEEDBACK_BANNERS } from '#web/lib/feed-texts';
import { FEEDBACK_FETCHER } from './story-card';

type Answer = ActionResult | { error: string; articleId?: string };
type Opened = Extract<ActionResult, { intent: 'feedback' }>;

const isOpened = (answer: Answer | undefined): answer is Opened =>
  !!answer && 'intent' in answer && answer.intent === 'feedback';
const isThanks = (answer: Answer | undefined) =>
  !!answer && 'intent' in answer && answer.intent === 'add-clue';
const isError = (answer: Answer | undefined): answer is { error: string } =>
  !!answer && 'error' in answer;

type Props = {
  /** What the page's own action answered (a form posted without JavaScript). */
  answered?: Answer;
  panelHref(threadId: string): string;
};

/**
 * The card of the story with this id while it is on the page. Looked up after every render: the
 * list may have been rebuilt and the story moved or gone. Before hydration (and without
 * JavaScript) there is none, and the banner stays where the page puts it.
 */
function useCardOf(articleId: string | undefined): Element | undefined {
  const [card, setCard] = useState<Element>();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- every render; it sets only on a change
  useEffect(() => {
    const found = articleId
      ? (document.getElementById(`story-${articleId}`)?.closest('.story-card') ?? undefined)
      : undefined;
    if (found !== card) setCard(found);
  });
  return card;
}

export function FeedbackBanner(props: Props) {
  const { banner, articleId, answer } = useFeedbackBanner(props);
  const card = useCardOf(articleId);
  // A new answer under a story low in the window: scrolled just enough to show it whole.
  useEffect(() => {
    card?.querySelector('.feed-banner--feedback')?.scrollIntoView({ block: 'nearest' });
  }, [card, answer]);
  if (!banner) return null;
  return card ? createPortal(banner, card) : banner;
}

/** What the newest answer shows, which story it is about, and the answer itself. */
function useFeedbackBanner({ answered, panelHref }: Props): {
  banner?: ReactElement;
  articleId?: string;
  answer?: Answer;
} {
  const feedback = useFetcher<Answer>({ key: FEEDBACK_FETCHER });
  const chip = useFetcher<Answer>({ key: 'feedback-chip' });
  const page = answered && 'articleId' in answered ? answered : undefined;
  // The newest answer wins: a chip answers after the feedback that offered it.
  const latest = [chip.data, feedback.data, page].find(Boolean);
  const opened = [feedback.data, page].find(isOpened);
  const about = (answer: Answer | undefined) =>
    answer && 'articleId' in answer ? answer.articleId : undefined;
  if (isError(latest)) {
    return {
      articleId: about(latest),
      answer: latest,
      banner: (
        <div className="feed-banner feed-banner--error feed-banner--feedback" role="alert">
          <p className="feed-banner__title">{FEEDBACK_BANNERS.errorTitle}</p>
          <p>{latest.error}</p>
        </div>
      ),
    };
  }
  const thanks = [latest, page].find(isThanks);
  if (thanks) {
    return {
      articleId: about(thanks),
      answer: thanks,
      banner: (
        <div className="feed-banner feed-banner--feedback" role="status">
          <p className="feed-banner__title">{FEEDBACK_BANNERS.chipThanks}</p>
        </div>
      ),
    };
  }
  if (!opened) return {};
  const banner = (
    <div className="feed-banner feed-banner--feedback" role="status">
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
                <input type="hidden" name="articleId" value={opened.articleId} />
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
    </div>
  );
  return { banner, articleId: opened.articleId, answer: opened };
}
