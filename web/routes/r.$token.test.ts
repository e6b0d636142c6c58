// The newsletter's redirect route: a signed link answers 302 to its own target, uncached and
// without a referrer, and counts the click; anything else is a small 400 page that counts nothing.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Newsletter from '#core/newsletter';
import { NewsletterIssueEntity } from '#core/newsletter';
import { freshIp } from '#tests/integration/route-call';
import { loader } from './r.$token';

const TARGET = 'https://news.example.org/a-story?ref=cluefeed';

async function issue() {
  const { data } = await NewsletterIssueEntity.create({
    id: ulid(),
    frequency: 'daily',
    from: '2026-11-19T08:00:00.000Z',
    to: '2026-11-20T08:00:00.000Z',
    audienceIds: [ulid()],
    status: 'done',
    createdAt: new Date().toISOString(),
  }).go();
  return data;
}

const linkFor = (issueId: string, url = TARGET) =>
  Newsletter.clickUrl({ issueId, subscriberId: ulid(), articleId: ulid(), url });

/** Follows a link (or any path under /r/) the way Remix calls the loader. */
function follow(link: string, method = 'GET') {
  const url = new URL(link, 'http://localhost');
  const segment = url.pathname.replace(/^\/r\//, '');
  // Remix hands a segment it cannot decode to the loader as it came.
  const token = safeDecode(segment);
  const request = new Request(`http://localhost${url.pathname}${url.search}`, {
    method,
    headers: { 'X-Forwarded-For': freshIp() },
  });
  return loader({ request, params: { token }, context: {} });
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const counts = async (issueId: string) => {
  const found = await Newsletter.issueById(issueId);
  return { clicks: found?.clicks, uniqueClicks: found?.uniqueClicks };
};

describe('GET /r/{token}', () => {
  it('redirects to the signed target, uncached and without a referrer, and counts the click', async () => {
    const { id } = await issue();
    const response = await follow(linkFor(id));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe(TARGET);
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(await counts(id)).toEqual({ clicks: 1, uniqueClicks: 1 });
  });

  it('takes the target only from the token, whatever the query says', async () => {
    const { id } = await issue();
    const link = `${linkFor(id)}?url=https://evil.example/&to=https://evil.example/&next=//evil.example`;
    const response = await follow(link);
    expect(response.headers.get('Location')).toBe(TARGET);
  });

  it('answers a bad link with a small 400 page and counts nothing', async () => {
    const { id } = await issue();
    const link = linkFor(id);
    const cut = link.slice(0, -5);
    for (const bad of [cut, '/r/nonsense', '/r/%E0%A4%A', `/r/${'x'.repeat(5000)}`, `${link}AA`]) {
      const response = await follow(bad);
      expect(response.status, bad.slice(0, 60)).toBe(400);
      expect(response.headers.get('Location')).toBeNull();
      expect(response.headers.get('Cache-Control')).toBe('private, no-store');
      expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
      const page = await response.text();
      expect(page).toContain('<h1>This link is not valid</h1>');
      expect(page).toContain('<a href="/">Cluefeed</a>');
    }
    expect(await counts(id)).toEqual({ clicks: 0, uniqueClicks: 0 });
  });

  it('redirects a HEAD (a link checker) without counting it', async () => {
    const { id } = await issue();
    const response = await follow(linkFor(id), 'HEAD');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe(TARGET);
    expect(await counts(id)).toEqual({ clicks: 0, uniqueClicks: 0 });
  });

  it('still takes the reader on when the issue no longer exists', async () => {
    const response = await follow(linkFor(ulid()));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe(TARGET);
  });
});
