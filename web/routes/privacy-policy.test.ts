// The privacy policy against the code it describes: what Mailchimp receives with each member (the
// tags core/subscribers mirrors), how long the click redirect remembers a reader's first click,
// how long a page view is kept, and how long a rate limit keyed by an IP address keeps it.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import * as Analytics from '#core/analytics';
import * as Assessment from '#core/assessment';
import * as Auth from '#core/auth';
import * as Newsletter from '#core/newsletter';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import * as Users from '#core/users';
import { createAudience } from '#tests/integration/factories';
import { RateLimitWindowEntity } from '../../core/rate-limit/entity';
import { tagsFor } from '../../core/subscribers/mirror';
import PrivacyPolicy from './privacy-policy';

vi.mock('@remix-run/react', () => ({
  useRouteLoaderData: () => ({ contactEmail: 'privacy@example.org' }),
}));

const policy = () =>
  renderToStaticMarkup(createElement(PrivacyPolicy))
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, ' ');

/** The policy's sentence that starts with `start`, up to its full stop. */
const sentence = (start: string) => policy().match(new RegExp(`${start}[^.]*\\.`))?.[0] ?? '';

describe('privacy policy', () => {
  it('names everything Mailchimp receives with a member', async () => {
    const [audience, niche] = await Promise.all([
      createAudience({ title: 'audit smart contracts' }),
      createAudience({ title: 'zk rollup builders', state: 'upcoming' }),
    ]);
    const tags = await tagsFor({
      id: ulid(),
      email: `privacy-${ulid().toLowerCase()}@example.org`,
      status: 'subscribed',
      audienceIds: [audience.id],
      shadowAudienceIds: [niche.id],
      firstAudienceId: audience.id,
      utm: 'spring',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      linkVersion: 0,
    });
    expect(tags).toEqual(
      expect.arrayContaining([
        audience.tag,
        niche.tag,
        `first-audience:${audience.tag}`,
        'utm:spring',
      ]),
    );
    const mailchimp = sentence('Mailchimp keeps our mailing list');
    expect(mailchimp).toContain('the audiences you chose');
    expect(mailchimp).toContain('the upcoming niches you identify with');
    expect(mailchimp).toContain('the first audience you subscribed to');
    expect(mailchimp).toContain('campaign (utm)');
  });

  it('says the redirect forgets a first click a year after it, as the stored click expires', async () => {
    const { data: issue } = await Newsletter.NewsletterIssueEntity.create({
      id: ulid(),
      origin: 'campaign',
      frequency: 'daily',
      from: '2026-01-19T08:00:00.000Z',
      to: '2026-01-20T08:00:00.000Z',
      audienceIds: [ulid()],
      status: 'done',
      createdAt: new Date().toISOString(),
    }).go();
    // A link of an issue sent 200 days ago, followed today.
    const sentAt = Date.now() - 200 * 86_400_000;
    const subject = JSON.stringify([issue.id, ulid(), ulid(), 'https://news.example.org/a']);
    const linkExpires = Math.floor(sentAt / 1000) + Newsletter.CLICK_LINK_TTL_SECONDS;
    const token = Tokens.sign('click', Newsletter.CLICK_LINK_TTL_SECONDS, subject, sentAt);
    const before = Math.floor(Date.now() / 1000);
    const { counted } = await Newsletter.followClick(token, { ip: `203.0.113.9-${ulid()}` });
    expect(counted).toBe('unique');
    const [, subscriberId, articleId] = JSON.parse(subject) as string[];
    const { data: click } = await Newsletter.ClickEntity.get({
      issueId: issue.id,
      subscriberId: subscriberId!,
      articleId: articleId!,
    }).go({ consistent: true });
    // Kept a year after the click, well past the day the issue's links stop working.
    expect(click!.expiresAt).toBeGreaterThanOrEqual(before + Newsletter.CLICK_LINK_TTL_SECONDS);
    expect(click!.expiresAt).toBeGreaterThan(linkExpires + 100 * 86_400);
    const pixels = sentence('Links in an issue go through a Cluefeed redirect');
    expect(pixels).toContain('forgets it a year after that first click');
    expect(pixels).not.toContain('when the links of that issue stop working');
  });

  it('names how long each counter keyed by an IP address can live', async () => {
    const byIp = {
      ...Object.fromEntries(
        Object.entries(RateLimit.LIMITS).filter(([name]) => name.endsWith('PerIp')),
      ),
      audienceNameChecks: Assessment.LIMIT_PER_IP,
      readerSignIn: Users.USER_LOGIN_LIMIT_PER_IP,
      adminSignIn: Auth.LOGIN_LIMIT_PER_IP,
    };
    const rateLimits = sentence('The address is kept only as the key of that counter');
    for (const [name, limit] of Object.entries(byIp)) {
      // The longest a counter lives: one counted at the very start of its window.
      const windowMs = limit.windowSeconds * 1000;
      const windowStart = Math.floor(Date.now() / windowMs) * windowMs;
      const key = `203.0.113.7-${ulid()}`;
      await RateLimit.attempt(limit, key, windowStart);
      const { data } = await RateLimitWindowEntity.get({ bucket: limit.bucket, key }).go({
        consistent: true,
      });
      const minutes = Math.ceil((data!.expiresAt - windowStart / 1000) / 60);
      expect(rateLimits, `${name} (${limit.bucket})`).toContain(`within ${minutes} minutes`);
    }
  });

  it('says how long a page view is kept, as its stored expiry says', async () => {
    const token = Analytics.pageViewToken(`http://localhost/a/privacy-${ulid()}`);
    const { event } = await Analytics.recordPageView({ name: 'page_view', token });
    const days = (event.expiresAt! - Date.parse(event.at) / 1000) / 86_400;
    expect(sentence('We keep each page view')).toContain(`for ${Math.ceil(days)} days`);
    expect(sentence('A page view counts')).toContain('once for each page our server sent');
  });
});
