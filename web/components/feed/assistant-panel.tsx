// The feed's side panel (spec: 640 px, spacing 16): a conversation with the assistant about the
// reader's clues, or about a story they liked or disliked. 'Review my clues' asks the assistant
// for the clue changes it heard (clues to add, remove and keep); 'Apply these changes' applies
// them. Closing the panel leaves the conversation behind: the next one starts afresh.
// A native <dialog>: rendered open by the server (no JavaScript: the URL opens and closes it);
// with script a modal, the page behind it inert, Tab kept inside, Escape closing it (the URL loses
// `?thread=`), and focus back on what opened it.
import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Panel } from '#web/lib/feed.server';
import { useHydrated } from '#web/lib/hydrated';
import { FEEDBACK_BANNERS } from '#web/lib/feed-texts';
import { ChatLog, ChatMessageField } from '#web/components/chat-log';

type Props = { panel: Panel; closeHref: string; keepChattingHref: string; error?: string };

const TITLES: Record<Panel['category'], string> = {
  change_clues: 'Change your clues',
  negative_feeback_on_article: 'Tell us what missed the mark',
  positive_feeback_on_article: 'Tell us what you liked',
};

export function AssistantPanel({ panel, closeHref, keepChattingHref, error }: Props) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const log = useRef<HTMLOListElement>(null);
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy =
    navigation.state !== 'idle' && navigation.formData?.get('threadId') === panel.threadId;
  const [text, setText] = useState('');
  // Without JavaScript nothing would enable Send again: it is only disabled once script runs.
  const hydrated = useHydrated();
  const count = panel.messages.length;

  // What had focus as the panel came (read before the panel takes it) gets it back when it goes.
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : document.activeElement,
  );
  // Shown as a modal once script runs.
  useEffect(() => {
    const shown = dialog.current;
    if (!hydrated || !shown) return;
    if (shown.open) shown.close();
    shown.showModal();
    heading.current?.focus();
    return () => {
      const back = opener instanceof HTMLElement && opener.isConnected ? opener : null;
      (back ?? document.getElementById('main'))?.focus();
    };
  }, [hydrated, opener]);
  useEffect(() => {
    heading.current?.focus();
  }, [panel.threadId]);
  const close = () => navigate(closeHref, { preventScrollReset: true });
  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [count]);
  // A sent message is in the log now: the field empties (a refused one keeps its text).
  useEffect(() => {
    setText('');
  }, [count]);

  return (
    <dialog
      ref={dialog}
      className="side-panel"
      aria-labelledby={headingId}
      aria-modal={hydrated || undefined}
      open={hydrated ? undefined : true}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      // Closed by the browser itself (an Escape it does not let the page keep): closed here too.
      onClose={(event) => {
        if (hydrated && !event.currentTarget.open) close();
      }}
      onKeyDown={keepTabInside}
    >
      <div className="side-panel__head">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {TITLES[panel.category]}
        </h2>
        <Link to={closeHref} className="button button--ghost button--small" preventScrollReset>
          Close<span className="visually-hidden"> the conversation</span>
        </Link>
      </div>
      <ChatLog messages={panel.messages} listRef={log} />
      {error && (
        <div className="feed-banner feed-banner--error" role="alert">
          <p className="feed-banner__title">{FEEDBACK_BANNERS.errorTitle}</p>
          <p>{error}</p>
        </div>
      )}
      {panel.review ? (
        <ClueReview panel={panel} busy={busy} keepChattingHref={keepChattingHref} />
      ) : (
        <>
          <Form method="post" className="chat__form" preventScrollReset>
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="threadId" value={panel.threadId} />
            <ChatMessageField
              name="message"
              text={text}
              onText={setText}
              busy={busy}
              sendDisabled={hydrated && (busy || !text.trim())}
            />
          </Form>
          <Form method="post" className="actions" preventScrollReset>
            <input type="hidden" name="intent" value="review" />
            <input type="hidden" name="threadId" value={panel.threadId} />
            <button type="submit" className="button button--ghost" disabled={busy}>
              Review my clues
            </button>
          </Form>
        </>
      )}
    </dialog>
  );
}

const FOCUSABLE = 'a[href], button:not(:disabled), textarea, input:not([type="hidden"]), select';

/** Tab from the panel's last control goes to its first, Shift+Tab from its first to its last. */
function keepTabInside(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (control) => control.getClientRects().length > 0,
  );
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const at = document.activeElement;
  const leaving = event.shiftKey
    ? at === first || !controls.includes(at as HTMLElement)
    : at === last;
  if (!leaving) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}

function ClueReview({
  panel,
  busy,
  keepChattingHref,
}: {
  panel: Panel;
  busy: boolean;
  keepChattingHref: string;
}) {
  const review = panel.review!;
  const mutesToAdd = review.mutesToAdd ?? [];
  const mutesToRemove = review.mutesToRemove ?? [];
  const changes =
    review.toAdd.length + review.toRemove.length + mutesToAdd.length + mutesToRemove.length;
  const list = (title: string, clues: string[]) =>
    clues.length > 0 && (
      <>
        <h3>{title}</h3>
        <ul>
          {clues.map((clue) => (
            <li key={clue}>{clue}</li>
          ))}
        </ul>
      </>
    );
  return (
    <section className="clue-review" aria-label="Your clue changes">
      {list('Clues to add', review.toAdd)}
      {list('Clues to remove', review.toRemove)}
      {list('Clues to keep', review.toKeep)}
      {list('Stop showing', mutesToAdd)}
      {list('Show again', mutesToRemove)}
      {changes === 0 && <p>The assistant did not hear a change to your clues yet.</p>}
      <div className="actions">
        <Link to={keepChattingHref} className="button button--ghost" preventScrollReset>
          Keep chatting
        </Link>
        {changes > 0 && (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="threadId" value={panel.threadId} />
            <button type="submit" className="button" disabled={busy}>
              Apply these changes
            </button>
          </Form>
        )}
      </div>
    </section>
  );
}
