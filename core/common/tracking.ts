// Query parameters that follow a visitor across public pages: utm (campaign source),
// raud (slug of the referring audience) and vus (funnel variant: '', 'sp' or 'ip').
import * as v from 'valibot';

export const TRACKING_PARAMS = ['utm', 'raud', 'vus'] as const;

const Param = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100), v.regex(/^[\w.~-]*$/)));

export const TrackingSchema = v.object({
  utm: Param,
  raud: Param,
  vus: v.optional(v.picklist(['', 'sp', 'ip'])),
});

export type Tracking = v.InferOutput<typeof TrackingSchema>;

/** The valid tracking values in a query string; anything malformed is dropped, never an error. */
export function trackingFrom(search: URLSearchParams): Tracking {
  const tracking: Tracking = {};
  for (const name of TRACKING_PARAMS) {
    const value = search.get(name);
    if (value === null) continue;
    const result = v.safeParse(TrackingSchema.entries[name], value);
    if (result.success && result.output !== undefined)
      Object.assign(tracking, { [name]: result.output });
  }
  return tracking;
}

/** `path` with the tracking values added (values already in `path` win). */
export function withTracking(path: string, tracking: Tracking): string {
  const [pathname = '', rest = ''] = path.split('?');
  const [query = '', hash] = rest.split('#');
  const params = new URLSearchParams(query);
  for (const name of TRACKING_PARAMS) {
    const value = tracking[name];
    if (value !== undefined && !params.has(name)) params.set(name, value);
  }
  const search = params.toString();
  return `${pathname}${search ? `?${search}` : ''}${hash ? `#${hash}` : ''}`;
}

/**
 * A referrer fit to store: an http(s) URL with only the tracking values of its query. Links in
 * e-mails carry tokens (`subscriberHash`, `token`) that a referrer would otherwise leak into
 * analytics; credentials and the fragment go too. Anything that is not such a URL is dropped.
 */
export function referrerWithoutTokens(referrer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const kept = new URLSearchParams();
  for (const name of TRACKING_PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.set(name, value);
  }
  const search = kept.toString();
  return `${url.origin}${url.pathname}${search ? `?${search}` : ''}`;
}
