// The pages the route sweep knows (web/routes.ts, read by tests/integration/route-table.ts), as
// the browser sweeps open them: seeded values for their dynamic segments, the links a subscriber
// gets for the public pages that read one, and a session for reader and admin pages. A route added
// to web/routes.ts is swept here too; a page with a dynamic segment nobody gave a sample stops the
// sweeps (it would only open its 404 page), so no page goes unchecked behind a made-up id.
import type { APIRequestContext, Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Audiences from '#core/audiences';
import * as ContentCards from '#core/content-cards';
import * as Newsletter from '#core/newsletter';
import * as ReaderFeeds from '#core/reader-feeds';
import * as Scoring from '#core/scoring';
import * as Subscribers from '#core/subscribers';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithFeed, readerWithPassword } from '#tests/integration/readers';
import { routeEntries, samplePath, type Access } from '#tests/integration/route-table';
import { expect } from './fixtures';
import { busyAudience, originalPost } from './seed';

export type SweptPage = {
  pattern: string;
  /** Path and query the sweep opens. */
  url: string;
  access: Access;
  /** 404 for the not-found pages (`/not-found` and the catch-all). */
  status: 200 | 404;
};

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };

/** The dynamic routes the sweep opens with a seeded thing (param names repeat across routes). */
const SAMPLED = [
  '/a/:slug',
  '/p/:slug',
  '/cc/:slug',
  '/subscribed-to-newsletter/:slug?',
  '/admin-panel/setup-campaign/:id',
  '/admin-panel/articles/:id',
] as const;

/** A scored article (its page's widest part is the scores table) and a sent campaign. */
async function adminSamples() {
  const tag = ulid().toLowerCase();
  const [reader, article] = await Promise.all([
    Users.create({ name: `Sweep reader ${tag}`, email: `e2e-sweep-reader-${tag}@example.org` }),
    createArticle({ canonicalUrl: `https://news.example/e2e/sweep/${tag}` }),
  ]);
  await Users.setDescriptors(reader.id, ['build DeFi protocols', 'audit lending markets']);
  await Scoring.scoreArticle(
    article,
    [Scoring.userTarget((await Users.byId(reader.id))!)],
    await Scoring.defaultSetup(ulid()),
  );
  const campaign = Newsletter.newCampaignId();
  await Newsletter.NewsletterIssueEntity.create({
    id: campaign,
    origin: 'campaign',
    frequency: 'daily',
    from: '2026-03-01T09:00:00.000Z',
    to: '2026-03-02T09:00:00.000Z',
    audienceIds: [],
    status: 'done',
    recipients: 3,
    sent: 1,
    skipped: 2,
    skippedUnsubscribed: 1,
    skippedNotConfirmed: 1,
    createdAt: '2026-03-02T09:00:00.000Z',
    startedAt: '2026-03-02T09:00:00.000Z',
    doneAt: '2026-03-02T09:01:00.000Z',
  }).go();
  return { article: article.id, campaign };
}

async function segmentSamples(): Promise<Record<(typeof SAMPLED)[number], Record<string, string>>> {
  const lookup = await Audiences.bySlug(busyAudience.slug);
  if (lookup.kind !== 'found') throw new Error(`seeded audience ${busyAudience.slug} is missing`);
  const [card] = (await ContentCards.pageForAudience(lookup.audience.id, { limit: 1 })).cards;
  if (!card) throw new Error(`seeded audience ${busyAudience.slug} has no card`);
  const admin = await adminSamples();
  return {
    '/a/:slug': { slug: busyAudience.slug },
    '/p/:slug': { slug: originalPost.slug },
    '/cc/:slug': { slug: ContentCards.pathSlug(card) },
    '/subscribed-to-newsletter/:slug?': { slug: busyAudience.slug },
    '/admin-panel/setup-campaign/:id': { id: admin.campaign },
    '/admin-panel/articles/:id': { id: admin.article },
  };
}

/** The route table's pages, each once (a layout shares its URL with its index), with the status
 * its swept URL answers. */
export const sweptPatterns = routeEntries()
  .filter(
    (route, index, all) =>
      route.page && all.findIndex((other) => other.pattern === route.pattern) === index,
  )
  .map(({ pattern, access }) => {
    const dynamic = pattern.split('/').some((segment) => segment.startsWith(':'));
    if (dynamic && !(SAMPLED as readonly string[]).includes(pattern)) {
      // Opened with a made-up id it would only show the 404 page, and its own page would never
      // be checked: give it a seeded thing in SAMPLED.
      throw new Error(`${pattern} has no sample for the browser sweeps`);
    }
    const notFound = pattern === '/not-found' || pattern.split('/').includes('*');
    return { pattern, access, status: (notFound ? 404 : 200) as SweptPage['status'] };
  });

/**
 * A visitor subscribed through the audience page; its e-mail links carry `subscriberHash`, which
 * the subscription pages read (the confirmation page its confirm token, the others manage).
 */
async function subscriberLinks(request: APIRequestContext) {
  const email = `e2e-sweep-${ulid().toLowerCase()}@example.org`;
  const answer = await request.post(`/a/${busyAudience.slug}`, {
    form: { email, placement: 'hero' },
    headers: { Origin: process.env.PUBLIC_URL! },
    maxRedirects: 0,
  });
  expect(answer.status(), 'subscribing the sweep visitor').toBe(302);
  const subscriber = await Subscribers.byEmail(email);
  if (!subscriber) throw new Error('the sweep visitor was not stored');
  const links = Subscribers.subscriberLinks(subscriber);
  return {
    confirm: new URL(links.confirmUrl).search,
    manage: new URL(links.preferencesUrl).search,
  };
}

/** A like link of a reader's private feed, as a reader app shows it: the vote page reads it. */
async function voteLink(request: APIRequestContext): Promise<string> {
  const reader = await readerWithFeed(['Very Relevant'], `Sweep Voter ${ulid().slice(-6)}`);
  const { key } = await ReaderFeeds.turnOn(reader.user.id);
  const feed = await request.get(ReaderFeeds.feedPaths(key).json);
  expect(feed.status(), "the sweep voter's feed").toBe(200);
  const { items } = (await feed.json()) as { items: { _cluefeed: { like_url: string } }[] };
  const like = items[0]?._cluefeed.like_url;
  if (!like) throw new Error("the sweep voter's feed has no like link");
  return new URL(like, process.env.PUBLIC_URL).search;
}

/** Every page of the route table with the URL the sweep opens. */
export async function sweptPages(request: APIRequestContext): Promise<SweptPage[]> {
  const [samples, links, vote] = await Promise.all([
    segmentSamples(),
    subscriberLinks(request),
    voteLink(request),
  ]);
  const queryOf = (pattern: string, access: Access) => {
    if (access !== 'public') return '';
    if (pattern === '/confirm-subscription') return links.confirm;
    return pattern === ReaderFeeds.VOTE_PATH ? vote : links.manage;
  };
  return sweptPatterns.map(({ pattern, access, status }) => {
    const { path } = samplePath(pattern, samples[pattern as (typeof SAMPLED)[number]]);
    return { pattern, url: `${path}${queryOf(pattern, access)}`, access, status };
  });
}

/** Signs in through the sign-in pages' own forms and gives the session cookies. */
export async function sessionCookies(request: APIRequestContext, access: Access) {
  if (access === 'public') return [];
  const origin = { Origin: process.env.PUBLIC_URL! };
  if (access === 'admin') {
    await request.post('/admin-panel/authorize', { form: ADMIN, headers: origin, maxRedirects: 0 });
  } else {
    const reader = await readerWithPassword({ clues: ['I build DeFi protocols'] });
    await request.post('/login', {
      form: { login: reader.email, password: reader.password },
      headers: origin,
      maxRedirects: 0,
    });
  }
  const { cookies } = await request.storageState();
  expect(cookies.length, `a ${access} session`).toBeGreaterThan(0);
  return cookies;
}

/** Opens a swept page as its user and checks it answered as expected, not with a sign-in page. */
export async function openSwept(page: Page, swept: SweptPage) {
  const answer = await page.goto(swept.url);
  expect(answer?.status(), `${swept.url} answers`).toBe(swept.status);
  const landed = new URL(page.url()).pathname;
  if (landed !== new URL(swept.url, page.url()).pathname) {
    expect(landed, `${swept.url} needs no other session`).not.toMatch(
      /^\/(login|admin-panel\/authorize)$/,
    );
  }
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
}
