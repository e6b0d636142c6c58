// Saves the reader's progress (the draft) on the server as it changes, against their invitation,
// so a reload, Back, or the invitation link opened again finds it (core/users' signup draft). One
// save at a time, the latest state after it; each names the revision it builds on.
import { useEffect, useRef } from 'react';
import type { DraftState } from '#core/users';
import { post } from './funnel';

/** Typing waits this long before a save, so a word is one request, not one per letter. */
const SAVE_DELAY_MS = 300;

/**
 * `state` undefined: nothing to save yet (before 'Start'); `finished`: the signup is done and the
 * draft gone, so nothing is saved or reported any more. A refused save is shown once through
 * `onError` and stops saving: the page would only be refused again until reloaded.
 */
export function useDraftSaver(
  token: string,
  saved: { revision: number; state?: DraftState },
  state: DraftState | undefined,
  finished: boolean,
  onError: (message: string) => void,
) {
  const revision = useRef(saved.revision);
  const last = useRef(saved.state ? JSON.stringify(saved.state) : '');
  const pending = useRef<string>();
  const sending = useRef(false);
  const stopped = useRef(false);
  const json = state && !finished ? JSON.stringify(state) : undefined;
  if (finished) stopped.current = true;

  useEffect(() => {
    if (json === undefined || json === last.current || stopped.current) return;
    const timer = setTimeout(() => {
      pending.current = json;
      void flush();
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);

    async function flush() {
      if (sending.current || pending.current === undefined || stopped.current) return;
      const body = pending.current;
      pending.current = undefined;
      sending.current = true;
      try {
        const answer = await post<{ revision: number }>('/get-started/save-draft', {
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
      if (pending.current !== undefined && pending.current !== last.current) await flush();
    }
  }, [json, token, onError]);
}
