// What the product offers, said alike on home and About: an audience newsletter anyone can get
// today (the featured audiences, whose pages subscribe in one step), and a feed of one's own
// through the waiting list.
import { useRouteLoaderData } from '@remix-run/react';
import type { RootData } from '#web/root';
import { TrackedLink } from './tracked-link';

/** What the waiting list is for. */
export const WAITLIST_OFFER =
  'Join our waiting list for a feed of your own, picked for the words that describe you.';

/** The featured audiences; nothing while none is featured. */
export function AudienceStart({ className = '' }: { className?: string }) {
  const featured = useRouteLoaderData<RootData>('root')?.featured ?? [];
  if (featured.length === 0) return null;
  return (
    <section className={`audience-start ${className}`} aria-labelledby="audience-start">
      <h2 id="audience-start">Get your newsletter</h2>
      <p>Pick the audience that describes you; its page subscribes you in one step.</p>
      <ul className="cloud cloud--large">
        {featured.map((audience) => (
          <li key={audience.slug}>
            <TrackedLink to={`/a/${audience.slug}`} className="cloud__item">
              {audience.title}
            </TrackedLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
