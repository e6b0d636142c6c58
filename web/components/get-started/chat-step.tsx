// The ip variant's interview (spec §4): a thread is started when the chat appears, messages are
// shown as bubbles (the server splits them and hides clue JSON), 'Complete Interview' fetches the
// clues, and 'So those are your clues' confirms them ('Back' returns to the chat).
import { useEffect, useId, useRef, useState } from 'react';
import { post } from './funnel';
import { StepHeading } from './step-heading';

export type ChatMessage = { id: string; role: 'user' | 'assistant'; bubbles: string[] };
export type Chat = { threadId?: string; messages: ChatMessage[]; startedAt?: number };

export const CHAT_ERRORS = {
  start: 'Failed to start the interactive conversation',
  send: 'Failed to send message',
  clues: 'Failed to get clues',
} as const;

type Props = {
  token: string;
  chat: Chat;
  focus: boolean;
  setChat(chat: Chat): void;
  onClues(clues: string[], suggestion: string): void;
  onError(message: string): void;
};

export function ChatStep({ token, chat, focus, setChat, onClues, onError }: Props) {
  const inputId = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (chat.threadId || started.current) return;
    started.current = true;
    post<{ threadId: string; messages: ChatMessage[] }>('/get-started/initialize-thread', {
      token,
    }).then(
      (thread) => setChat({ ...thread, startedAt: Date.now() }),
      (error: Error) => onError(`${CHAT_ERRORS.start}: ${error.message}`),
    );
  }, [chat.threadId, token, setChat, onError]);

  async function send() {
    if (!chat.threadId || !text.trim() || busy) return;
    setBusy(true);
    try {
      const answer = await post<{ messages: ChatMessage[] }>('/get-started/send-message', {
        token,
        threadId: chat.threadId,
        message: text,
      });
      setChat({ ...chat, messages: answer.messages });
      setText('');
    } catch (error) {
      onError(`${CHAT_ERRORS.send}: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  async function complete() {
    if (!chat.threadId || busy) return;
    setBusy(true);
    try {
      const answer = await post<{ clues: string[]; suggestion: string }>(
        '/get-started/retrieve-clues',
        { token, threadId: chat.threadId },
      );
      onClues(answer.clues, answer.suggestion);
    } catch (error) {
      onError(`${CHAT_ERRORS.clues}: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section>
      <StepHeading focus={focus}>Hello, this is your Content Curator</StepHeading>
      <ol className="chat" role="log" aria-live="polite" aria-label="Conversation">
        {chat.messages.flatMap((message) =>
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
      <form
        className="chat__form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor={inputId} className="visually-hidden">
          Your message
        </label>
        <textarea
          id={inputId}
          value={text}
          rows={2}
          maxLength={1000}
          readOnly={busy}
          placeholder="Type here..."
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button type="submit" className="button" disabled={!text.trim() || busy || !chat.threadId}>
          Send
        </button>
      </form>
      <div className="actions">
        <button
          type="button"
          className="button button--large"
          disabled={busy || !chat.threadId}
          onClick={() => void complete()}
        >
          Complete Interview
        </button>
      </div>
    </section>
  );
}

export function CluesStep(props: {
  clues: string[];
  suggestion: string;
  focus: boolean;
  onBack(): void;
  onComplete(): void;
}) {
  return (
    <section>
      <StepHeading focus={props.focus}>So those are your clues</StepHeading>
      {props.clues.length > 0 ? (
        <ul className="funnel__entries" aria-label="Your clues">
          {props.clues.map((clue) => (
            <li key={clue}>{clue}</li>
          ))}
        </ul>
      ) : null}
      {props.suggestion && <p>{props.suggestion}</p>}
      <div className="actions">
        <button type="button" className="button button--ghost" onClick={props.onBack}>
          Back
        </button>
        <button
          type="button"
          className="button"
          disabled={props.clues.length === 0}
          onClick={props.onComplete}
        >
          Complete Profile
        </button>
      </div>
    </section>
  );
}
