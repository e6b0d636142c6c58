// A toast: a short confirmation announced politely and hidden after 5 seconds (the spec's
// toast duration). Without script it simply stays on the page.
import { useEffect, useState } from 'react';

export const TOAST_MS = 5_000;

/** `stamp` tells two equal messages apart, so a second identical toast shows again. */
export function Toast({ message, stamp }: { message?: string; stamp?: number }) {
  const [shown, setShown] = useState(message);
  useEffect(() => {
    setShown(message);
    if (!message) return;
    const timer = setTimeout(() => setShown(undefined), TOAST_MS);
    return () => clearTimeout(timer);
  }, [message, stamp]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {shown && <p className="toast">{shown}</p>}
    </div>
  );
}
