// Saves the reader's progress (the draft) on the server as it changes, against their invitation,
// so a reload, Back, or the invitation link opened again finds it (core/users' signup draft). One
// save at a time, the latest state after it; each names the revision it builds on.
import { useEffect, useRef } from 'react';
import type { DraftState } from '#core/users';
import { post } from './funnel';

/** Typing waits this long before a save, so a word is one request, not one per letter. */
const SAVE_DELAY_MS = 300;
const SAVE_PATH = '/get-started/save-draft';

/**
 * `state` undefined: nothing to save yet (before 'Start'); `finished`: the signup is done and the
 * draft gone, so nothing is saved or reported any more; `typing`: changes come letter by letter,
 * so they wait a moment (a move between steps is saved at once). A refused save is shown once
 * through `onError` and stops saving: the page would only be refused again until reloaded.
 */
export function useDraftSaver(
  token: string,
  saved: { revision: number; state?: DraftState },
  state: DraftState | undefined,
  options: { finished: boolean; typing: boolean },
  onError: (message: string) => void,
) {
  const revision = useRef(saved.revision);
  const last = useRef(saved.state ? JSON.stringify(saved.state) : '');
  /** The newest state not yet handed to a save. */
  const waiting = useRef<string>();
  const sending = useRef(false);
  const stopped = useRef(false);
  const json = state && !options.finished ? JSON.stringify(state) : undefined;
  if (options.finished) stopped.current = true;

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
