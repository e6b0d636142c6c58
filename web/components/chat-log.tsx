// A conversation with the Content Curator as the reader sees it, in the funnel's interview and
// the feed's side panel alike: a live log around the list of bubbles (a list's items must sit in
// a list), each bubble named for who says it, and the reader's message field with Send.
import { useId, type RefObject } from 'react';

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

/** The longest message the assistant takes (core/assistant's ASSISTANT_LIMITS.messageLength). */
const MESSAGE_LENGTH = 1000;

/**
 * The reader's message and Send, inside the caller's form (the panel's posts without JavaScript,
 * the interview's fetches). Enter sends a message that is not blank; Shift+Enter starts a line.
 */
export function ChatMessageField({
  text,
  onText,
  busy,
  sendDisabled,
  name,
}: {
  text: string;
  onText(text: string): void;
  /** A message is on its way: the field keeps its text, read-only. */
  busy: boolean;
  sendDisabled: boolean;
  /** The field's name in a form posted as it is. */
  name?: string;
}) {
  const inputId = useId();
  return (
    <>
      <label htmlFor={inputId} className="visually-hidden">
        Your message
      </label>
      <textarea
        id={inputId}
        name={name}
        value={text}
        rows={2}
        maxLength={MESSAGE_LENGTH}
        readOnly={busy}
        placeholder="Type here..."
        onChange={(event) => onText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            if (text.trim()) event.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <button type="submit" className="button" disabled={sendDisabled}>
        Send
      </button>
    </>
  );
}
