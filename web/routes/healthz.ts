// A trivial route: liveness checks, and the framework's ceiling in the public-pages benchmark.
export function loader() {
  return new Response('ok', {
    headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
  });
}
