// What an unsubscribed reader sees on the preferences and unsubscribe pages.
import { TrackedLink } from './tracked-link';

export function Unsubscribed({ email }: { email: string }) {
  return (
    <section className="page narrow center">
      <h1>You are unsubscribed</h1>
      <p className="lede">
        We will not e-mail {email} again. You can subscribe again from any audience page.
      </p>
      <TrackedLink to="/" className="button">
        Back to Home
      </TrackedLink>
    </section>
  );
}
