// Saves the reader's progress (the draft) on the server as it changes, against their invitation,
// so a reload, Back, or the invitation link opened again finds it (core/users' signup draft). One
// save at a time, the latest state after it; each names the revision it builds on. Once loaded,
// the page reads the draft again, since the page before it may have saved after its loader read it.
import { useEffect, useRef } from 'react';
import type { DraftState } from '#core/users';
import { post } from './funnel';

/** Typing waits this long before a save, so a word is one request, not one per letter. */
const SAVE_DELAY_MS = 300;
const SAVE_PATH = '/get-started/save-draft';
const READ_PATH = '/get-started/read-draft';

/** Where the page stands: the revision it builds on and the state on screen (as JSON). */
export type Mark = { revision: number; json?: string };

/**
 * Whether the page starts again from the draft the server holds now (its revision: `found`):
 * only from a newer one, and only while nothing changed on the page since it loaded (nothing
 * typed or chosen, nothing saved or being saved), so nothing the reader did here is replaced.
 */
export function takesNewer(loaded: Mark, now: Mark & { sending: boolean }, found?: number) {
  return (
    found !== undefined &&
    found > loaded.revision &&
    now.revision === loaded.revision &&
    now.json === loaded.json &&
    !now.sending
  );
}

/**
 * `state` undefined: nothing to save yet (before 'Start'); `finished`: the signup is done and the
 * draft gone, so nothing is saved or reported any more; `typing`: changes come letter by letter,
 * so they wait a moment (a move between steps is saved at once). A refused save is shown once
 * through `onError` and stops saving: the page would only be refused again until reloaded.
 * `onNewer`: the page reads the draft once as it loads, and is handed a newer one (see below).
 */
export function useDraftSaver<Found extends { draft: { revision: number } | null }>(
  token: string,
  saved: { revision: number; state?: DraftState },
  state: DraftState | undefined,
  options: { finished: boolean; typing: boolean },
  onError: (message: string) => void,
  onNewer?: (found: Found) => void,
) {
  const revision = useRef(saved.revision);
  const last = useRef(saved.state ? JSON.stringify(saved.state) : '');
  /** The newest state not yet handed to a save. */
  const waiting = useRef<string>();
  const sending = useRef(false);
  const stopped = useRef(false);
  const json = state && !options.finished ? JSON.stringify(state) : undefined;
  if (options.finished) stopped.current = true;
  /** The state on screen as last rendered: a keystroke is rendered before any answer is read. */
  const shown = useRef(json);
  shown.current = json;

  // A reload (or the link opened again) while a change waits: the page going sends it (below) only
  // once the new page's request is answered, so the new page's loader read the draft before it.
  // So the page reads the draft once more when loaded, and if the server's is newer and the
  // reader did nothing here yet, it is handed over at once (no keystroke can come in between).
  useEffect(() => {
    if (!onNewer || !state || json === undefined) return;
    const loaded = { revision: revision.current, json };
    post<Found>(READ_PATH, { token, variant: state.variant }).then(
      (found) => {
        const now = { revision: revision.current, json: shown.current, sending: sending.current };
        if (takesNewer(loaded, now, found.draft?.revision)) onNewer(found);
      },
      // Nothing newer to start from; a save says what is wrong, if anything is.
      () => undefined,
    );
  }, []);

  useEffect(() => {
    if (json === undefined || json === last.current || stopped.current) return;
    waiting.current = json;
    const timer = setTimeout(() => void flush(), options.typing ? SAVE_DELAY_MS : 0);
    return () => clearTimeout(timer);

    async function flush() {
      if (sending.current || waiting.current === undefined || stopped.current) return;
      const body = waiting.current;
      waiting.current = undefined;
      sending.current = true;
      try {
        const answer = await post<{ revision: number }>(SAVE_PATH, {
          token,
          revision: revision.current,
          state: JSON.parse(body) as DraftState,
        });
        revision.current = answer.revision;
        last.current = body;
      } catch (error) {
        if (!stopped.current) onError((error as Error).message);
        stopped.current = true;
      } finally {
        sending.current = false;
      }
      if (waiting.current !== undefined) await flush();
    }
  }, [json, token, options.typing, onError]);

  // Leaving (a reload, another site) while a change waits: it goes out with the page.
  useEffect(() => {
    const leave = () => {
      if (waiting.current === undefined || sending.current || stopped.current) return;
      const body = `{"token":${JSON.stringify(token)},"revision":${revision.current},"state":${waiting.current}}`;
      navigator.sendBeacon(SAVE_PATH, new Blob([body], { type: 'application/json' }));
      waiting.current = undefined;
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [token]);
}
