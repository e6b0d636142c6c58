// The state every subscriber page shows for an invalid, expired or broken link.
import { TrackedLink } from './tracked-link';

export function LinkError({ message }: { message: string }) {
  return (
    <section className="page narrow center" role="alert">
      <h1>Error!</h1>
      <p>{message}</p>
      <TrackedLink to="/" className="button">
        Back to Home
      </TrackedLink>
    </section>
  );
}
