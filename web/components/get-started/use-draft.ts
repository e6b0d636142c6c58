// Saves the reader's progress (the draft) on the server as it changes, against their invitation,
// so a reload, Back, or the invitation link opened again finds it (core/users' signup draft). One
// save at a time, the latest state after it; each names the revision it builds on. Once loaded,
// the page reads the draft again, since the page before it may have saved after its loader read it.
import { useEffect, useRef, useState } from 'react';
import type { DraftState } from '#core/users';
import { post } from './funnel';

/** Typing waits this long before a save, so a word is one request, not one per letter. */
const SAVE_DELAY_MS = 300;
const SAVE_PATH = '/get-started/save-draft';
const READ_PATH = '/get-started/read-draft';

/** Where the page stands as it loads: the revision it builds on, the state on screen (as JSON). */
export type Mark = { revision: number; json?: string };

/**
 * Whether the page starts again from the draft the server holds now (its revision: `found`):
 * only from a newer one, and only while the state on screen (`shown`) is still the one it loaded
 * with (nothing typed or chosen), so nothing the reader did here is replaced.
 */
export function takesNewer(loaded: Mark, shown: string | undefined, found?: number) {
  return found !== undefined && found > loaded.revision && shown === loaded.json;
}

/**
 * `state` undefined: nothing to save yet (before 'Start'); `finished`: the signup is done and the
 * draft gone, so nothing is saved or reported any more; `typing`: changes come letter by letter,
 * so they wait a moment (a move between steps is saved at once). A refused save is shown once
 * through `onError` and stops saving: the page would only be refused again until reloaded.
 * `onNewer`: the page reads the draft again as it loads, and is handed a newer one (see below).
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
  /** The newest state not yet handed to a save, and the one a save is taking to the server. */
  const waiting = useRef<string>();
  const sending = useRef<string>();
  const stopped = useRef(false);
  const json = state && !options.finished ? JSON.stringify(state) : undefined;
  if (options.finished) stopped.current = true;
  /** The state on screen as last rendered: a keystroke is rendered before any answer is read. */
  const shown = useRef(json);
  shown.current = json;
  /** Changes wait for the read below: a save would build on the revision the loader read. */
  const [reading, setReading] = useState(() => Boolean(onNewer) && json !== undefined);

  // A reload (or the link opened again) while a change waits or a save is on its way: the page
  // going sends it (below) only once the new page's request is answered, so the new page's loader
  // read the draft before it. So the page reads the draft once more when loaded, and if the
  // server's is newer and the reader did nothing here yet, it is handed over at once (no
  // keystroke can come in between).
  useEffect(() => {
    if (!reading || !onNewer || !state) return;
    const loaded = { revision: revision.current, json };
    post<Found>(READ_PATH, { token, variant: state.variant }).then(
      (found) => {
        if (takesNewer(loaded, shown.current, found.draft?.revision)) onNewer(found);
        else setReading(false);
      },
      // Nothing newer to start from; a save says what is wrong, if anything is.
      () => setReading(false),
    );
  }, []);

  useEffect(() => {
    if (json === undefined || stopped.current) return;
    // Back to what was saved last: nothing waits (nor leaves with the page).
    waiting.current = json === last.current ? undefined : json;
    if (waiting.current === undefined || reading) return;
    const timer = setTimeout(() => void flush(), options.typing ? SAVE_DELAY_MS : 0);
    return () => clearTimeout(timer);

    async function flush() {
      if (sending.current !== undefined || waiting.current === undefined || stopped.current) return;
      const body = waiting.current;
      waiting.current = undefined;
      sending.current = body;
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
        sending.current = undefined;
      }
      if (waiting.current !== undefined) await flush();
    }
  }, [json, token, options.typing, onError, reading]);

  // Leaving (a reload, another site) while a change waits, or while a save is on its way (the
  // page going may cut it off before it reaches the server): the newest state goes out with the
  // page, over the revision that save built on. If that save did arrive, this one is refused and
  // what it took stays: it only misses a change made while it was on its way.
  useEffect(() => {
    const leave = () => {
      const newest = waiting.current ?? sending.current;
      if (newest === undefined || stopped.current) return;
      const body = `{"token":${JSON.stringify(token)},"revision":${revision.current},"state":${newest}}`;
      navigator.sendBeacon(SAVE_PATH, new Blob([body], { type: 'application/json' }));
      waiting.current = undefined;
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [token]);
}
