// A moment on an admin page: the one admin format (web/lib/format.ts) in a <time> element that
// carries the exact ISO time, or `otherwise` when there is none.
import { formatTime } from '#web/lib/format';

export function When({
  iso,
  seconds,
  otherwise = 'never',
}: {
  iso?: string;
  seconds?: boolean;
  otherwise?: string;
}) {
  if (!iso) return <>{otherwise}</>;
  return <time dateTime={iso}>{formatTime(iso, { seconds })}</time>;
}
