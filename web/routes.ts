// Every route of the app, explicitly (Remix v3 route config).
import { type RouteConfig, index, route } from '@remix-run/route-config';

export default [
  index('routes/home.tsx'),
  route('about', 'routes/about.tsx'),
  route('a/:slug', 'routes/audience.tsx'),
  route('p/:slug', 'routes/post.tsx'),
  route('cc/:slug', 'routes/content-card.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('assemble-your-newsletter', 'routes/assemble-your-newsletter.tsx'),
  route('confirm-subscription', 'routes/confirm-subscription.tsx'),
  route('subscription-confirmed', 'routes/subscription-confirmed.tsx'),
  route('subscription', 'routes/subscription.tsx'),
  route('unsubscribe', 'routes/unsubscribe.tsx'),
  route('upcoming-niches', 'routes/upcoming-niches.tsx'),
  route('we-should-have-known', 'routes/we-should-have-known.tsx'),
  route('thank-you-for-voting', 'routes/thank-you-for-voting.tsx'),
  route('subscribed-to-newsletter/:slug?', 'routes/subscribed-to-newsletter.tsx'),
  route('subscribed-to-newsletter-completed', 'routes/subscribed-to-newsletter-completed.tsx'),
  route('subscribed-to-newsletter-suggestions', 'routes/subscribed-to-newsletter-suggestions.tsx'),
  route('not-found', 'routes/not-found.tsx'),
  route('api/token', 'routes/api.token.ts'),
  route('api/submit-email', 'routes/api.submit-email.ts'),
  route('api/events', 'routes/api.events.ts'),
  route('api/unsubscribe', 'routes/api.unsubscribe.ts'),
  route('healthz', 'routes/healthz.ts'),
  route('*', 'routes/not-found.tsx', { id: 'routes/catch-all' }),
] satisfies RouteConfig;
