// Completed thank-you: 'You're the best!'.
import type { MetaFunction } from '@remix-run/node';
import { TrackedLink } from '#web/components/tracked-link';
import { publicPageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [{ title: "You're the best! · Cluefeed" }];
export const headers = publicPageHeaders;

export default function SubscribedToNewsletterCompleted() {
  return (
    <section className="page narrow center">
      <h1>You&apos;re the best!</h1>
      <p className="lede">Thank you for your ideas. Our editors read every one of them.</p>
      <TrackedLink to="/" className="button">
        Back to Home
      </TrackedLink>
    </section>
  );
}
