// What a like, a dislike or a chip posted without JavaScript answered, read again by the page its
// redirect leads to (the feed's loader): the reader's own feedback on the story, and the
// conversation it opened with its chips. The list is rebuilt with the feedback only later, so the
// page shows it as given from here.
import * as v from 'valibot';
import * as Assistant from '#core/assistant';
import { FeedbackEntity } from './entities';
import type { Feedback } from './feedback';

/** A story named in the URL after a redirect: anything else names no feedback. */
const ArticleId = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/));

export type AnsweredFeedback = Feedback & {
  title: string;
  /** The conversation the feedback opened, while it is the reader's, with its chips. */
  chat?: { threadId: string; chips: string[] };
};

/**
 * The reader's feedback on the story, or nothing for a story they gave none on. `withChat: false`
 * (a chip's thanks) leaves the conversation unread.
 */
export async function answeredFeedback(
  userId: string,
  articleId: string | null,
  { withChat = true } = {},
): Promise<AnsweredFeedback | undefined> {
  if (!v.is(ArticleId, articleId)) return undefined;
  const { data } = await FeedbackEntity.get({ userId, articleId }).go({ consistent: true });
  if (!data) return undefined;
  const { kind, threadId, title } = data;
  const chat = withChat && threadId ? await Assistant.feedbackChat(userId, threadId) : undefined;
  return { articleId, kind, title, ...(chat ? { chat } : {}) };
}
