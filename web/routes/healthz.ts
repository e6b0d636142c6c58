// A trivial route: liveness checks, and the framework's ceiling in the public-pages benchmark.
import { readOnly, storingLogs } from '#web/lib/resource-route.server';

export const loader = storingLogs(function loader() {
  return new Response('ok', {
    headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
  });
});

export const action = readOnly();
