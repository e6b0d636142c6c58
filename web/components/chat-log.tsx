// A conversation with the Content Curator as the reader sees it, in the funnel's interview and
// the feed's side panel alike: a live log around the list of bubbles (a list's items must sit in
// a list), each bubble named for who says it.
import type { RefObject } from 'react';

export type ChatLogMessage = { id: string; role: 'assistant' | 'user'; bubbles: string[] };

export function ChatLog({
  messages,
  listRef,
}: {
  messages: ChatLogMessage[];
  /** The list, for the caller that scrolls it to its newest bubble. */
  listRef: RefObject<HTMLOListElement>;
}) {
  return (
    <div className="chat-log" role="log" aria-live="polite" aria-label="Conversation">
      <ol ref={listRef} className="chat">
        {messages.flatMap((message) =>
          message.bubbles.map((bubble, index) => (
            <li
              key={`${message.id}-${index}`}
              className={`chat__bubble chat__bubble--${message.role}`}
            >
              <span className="visually-hidden">
                {message.role === 'assistant' ? 'Curator: ' : 'You: '}
              </span>
              {bubble}
            </li>
          )),
        )}
      </ol>
    </div>
  );
}
