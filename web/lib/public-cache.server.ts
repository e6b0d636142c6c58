// A short-lived in-process cache for what public pages read. Those pages may already be five
// minutes stale at the CDN, so 30 seconds here costs nothing in freshness and spares the table a
// read per request on a warm server (and lets concurrent requests share one read).
const TTL_MS = 30_000;
const MAX_ENTRIES = 2_000;

const entries = new Map<string, { expires: number; value: Promise<unknown> }>();

export function cachedRead<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = entries.get(key);
  if (hit && hit.expires > now) return own(hit.value as Promise<T>);
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const value = load();
  entries.set(key, { expires: now + TTL_MS, value });
  value.catch(() => entries.delete(key));
  return own(value);
}

/**
 * The shared read as this caller's own: a thrown Response (a loader's 404) has a body that
 * whoever renders it reads, so every waiting request gets its own copy and the shared one is
 * never read (two requests sharing one failed with 'Body has already been read').
 */
function own<T>(shared: Promise<T>): Promise<T> {
  return shared.catch((reason: unknown) => {
    throw reason instanceof Response ? reason.clone() : reason;
  });
}
