// The banner a like or dislike opens (spec: Feed feedback), kept in view at the foot of the
// stories while the reader scrolls: its chips, the first 'Let me chat with the assistant' (the
// side panel on the story's conversation), each other one a clue to add; then 'Thank you for
// your feedback, it means a lot!'. A refusal shows the spec's error banner.
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

export function FeedbackBanner({ answered, panelHref }: Props) {
  const feedback = useFetcher<Answer>({ key: FEEDBACK_FETCHER });
  const chip = useFetcher<Answer>({ key: 'feedback-chip' });
  const page = answered && 'articleId' in answered ? answered : undefined;
  // The newest answer wins: a chip answers after the feedback that offered it.
  const latest = [chip.data, feedback.data, page].find(Boolean);
  const opened = [feedback.data, page].find(isOpened);
  if (isError(latest)) {
    return (
      <div className="feed-banner feed-banner--error feed-banner--floating" role="alert">
        <p className="feed-banner__title">{FEEDBACK_BANNERS.errorTitle}</p>
        <p>{latest.error}</p>
      </div>
    );
  }
  if (isThanks(latest) || isThanks(page)) {
    return (
      <div className="feed-banner feed-banner--floating" role="status">
        <p className="feed-banner__title">{FEEDBACK_BANNERS.chipThanks}</p>
      </div>
    );
  }
  if (!opened) return null;
  return (
    <div className="feed-banner feed-banner--floating" role="status">
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
}
