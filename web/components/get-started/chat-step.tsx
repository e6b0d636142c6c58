// The ip variant's interview (spec §4): a thread is started when the chat appears, messages are
// shown as bubbles (the server splits them and hides clue JSON) with the newest in view,
// 'Complete Interview' fetches the clues, and 'So those are your clues' confirms them: each can be
// edited or deleted there ('Back' returns to the chat).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { post } from './funnel';
import { StepHeading } from './step-heading';
import { ChatLog, ChatMessageField, type ChatLogMessage } from '#web/components/chat-log';

export type Chat = { threadId?: string; messages: ChatLogMessage[]; startedAt?: number };

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
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const log = useRef<HTMLOListElement>(null);
  const count = chat.messages.length;

  // The newest message in view: the log scrolls to its end, and the page to the log if needed.
  useEffect(() => {
    const newest = log.current?.lastElementChild;
    if (!newest || !log.current) return;
    log.current.scrollTop = log.current.scrollHeight;
    newest.scrollIntoView({ block: 'nearest' });
  }, [count]);

  useEffect(() => {
    if (chat.threadId || started.current) return;
    started.current = true;
    post<{ threadId: string; messages: ChatLogMessage[] }>('/get-started/initialize-thread', {
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
      const answer = await post<{ messages: ChatLogMessage[] }>('/get-started/send-message', {
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
      <ChatLog messages={chat.messages} listRef={log} />
      <form
        className="chat__form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <ChatMessageField
          text={text}
          onText={setText}
          busy={busy}
          sendDisabled={!text.trim() || busy || !chat.threadId}
        />
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

/** A clue as the reader may edit it: the assistant's own limit, and never empty. */
const CLUE_MAX = 300;
const CLUE_MESSAGES = {
  empty: 'A clue cannot be empty',
  tooLong: `A clue has at most ${CLUE_MAX} characters`,
} as const;

export function CluesStep(props: {
  clues: string[];
  suggestion: string;
  focus: boolean;
  onChange(clues: string[]): void;
  onBack(): void;
  onComplete(): void;
}) {
  const replace = (index: number, clue?: string) =>
    props.onChange(
      props.clues.flatMap((old, at) => (at !== index ? [old] : clue === undefined ? [] : [clue])),
    );
  return (
    <section>
      <StepHeading focus={props.focus}>So those are your clues</StepHeading>
      {props.clues.length > 0 ? (
        <ul className="funnel__entries" aria-label="Your clues">
          {props.clues.map((clue, index) => (
            <ClueRow
              // By position: an edited clue keeps its row, and the focus on it.
              key={index}
              clue={clue}
              onSave={(edited) => replace(index, edited)}
              onDelete={() => replace(index)}
            />
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

function ClueRow(props: { clue: string; onSave(clue: string): void; onDelete(): void }) {
  const id = useId();
  const [text, setText] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const editing = text !== undefined;
  const wasEditing = useRef(false);
  // Into the field when editing starts; back to its Edit button when it ends.
  useEffect(() => {
    if (editing) field.current?.focus();
    else if (wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  function save(event: FormEvent) {
    event.preventDefault();
    const clue = (text ?? '').replace(/\s+/g, ' ').trim();
    if (!clue) return setProblem(CLUE_MESSAGES.empty);
    if (clue.length > CLUE_MAX) return setProblem(CLUE_MESSAGES.tooLong);
    setText(undefined);
    setProblem(undefined);
    props.onSave(clue);
  }

  if (!editing) {
    return (
      <li>
        <span>{props.clue}</span>
        <div className="funnel__row-actions">
          <button
            ref={editButton}
            type="button"
            className="funnel__action"
            aria-label={`Edit ${props.clue}`}
            onClick={() => setText(props.clue)}
          >
            Edit
          </button>
          <button
            type="button"
            className="funnel__action"
            aria-label={`Delete ${props.clue}`}
            onClick={props.onDelete}
          >
            Delete
          </button>
        </div>
      </li>
    );
  }
  return (
    <li>
      <form className="funnel__edit" noValidate onSubmit={save}>
        <label htmlFor={id} className="visually-hidden">
          Edit your clue
        </label>
        <input
          ref={field}
          id={id}
          type="text"
          value={text}
          maxLength={CLUE_MAX}
          aria-invalid={Boolean(problem)}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setText(undefined);
          }}
        />
        <div className="funnel__row-actions">
          <button type="submit" className="funnel__action">
            Save
          </button>
          <button
            type="button"
            className="funnel__action"
            onClick={() => {
              setText(undefined);
              setProblem(undefined);
            }}
          >
            Cancel
          </button>
        </div>
        {problem && (
          <p id={`${id}-error`} className="field__error">
            {problem}
          </p>
        )}
      </form>
    </li>
  );
}
