// The audience's newsletter offered at the end of a page that belongs to it (a post, a content
// card): what it brings and the e-mail field, which posts to the page's own action.
import { useId } from 'react';
import { SubscribeForm } from './subscribe-form';

type Frequency = 'daily' | 'weekly';

/** What an audience's newsletter promises, on its page and wherever it is offered. */
export function newsletterPromise(frequency: Frequency): string {
  return frequency === 'daily'
    ? 'The stories that matter to you, picked and explained every morning. Readable in 5 minutes.'
    : 'The week’s stories that matter to you, picked and explained in one e-mail.';
}

export function SubscribeBlock({
  audience,
}: {
  audience: { title: string; frequency: Frequency };
}) {
  const headingId = useId();
  return (
    <aside className="subscribe-block" aria-labelledby={headingId}>
      <h2 id={headingId}>Get the newsletter for those who {audience.title}</h2>
      <p>{newsletterPromise(audience.frequency)}</p>
      <SubscribeForm placement="hero" />
    </aside>
  );
}
