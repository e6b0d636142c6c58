// Every route of the app, explicitly (Remix v3 route config).
import { type RouteConfig, index, route } from '@remix-run/route-config';

export default [
  index('routes/home.tsx'),
  route('about', 'routes/about.tsx'),
  route('a/:slug', 'routes/audience.tsx'),
  route('p/:slug', 'routes/post.tsx'),
  route('cc/:slug', 'routes/content-card.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('not-found', 'routes/not-found.tsx'),
  route('api/token', 'routes/api.token.ts'),
  route('api/submit-email', 'routes/api.submit-email.ts'),
  route('api/events', 'routes/api.events.ts'),
  route('healthz', 'routes/healthz.ts'),
  route('*', 'routes/not-found.tsx', { id: 'routes/catch-all' }),
] satisfies RouteConfig;
