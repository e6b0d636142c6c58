// The page-not-found screen: shown for /not-found, unknown paths and missing content.
import { TrackedLink } from './tracked-link';

export function NotFoundPage() {
  return (
    <section className="page narrow center not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <TrackedLink to="/" className="button">
        Back to Home
      </TrackedLink>
    </section>
  );
}
