// /account's private feed section through its loader and action: the guard, a URL shown once
// after the redirect, a rotation decided from a page another tab changed, and turning it off.
import { describe, expect, it } from 'vitest';
import * as ReaderFeeds from '#core/reader-feeds';
import { call, readerCookie, request } from '#tests/integration/route-call';
import { readerWithFeed } from '#tests/integration/readers';
import { action, ACCOUNT_TEXTS, loader } from './account';

const ORIGIN = 'http://localhost';

type Page = {
  state: ReaderFeeds.ReaderFeedState;
  done?: string;
  error?: string;
  urls?: { rss: string; json: string; opml: string };
};

async function signedIn() {
  const reader = await readerWithFeed(['Very Relevant']);
  return { ...reader, session: await readerCookie(reader.token) };
}

/** Posts the form, then follows the redirect with its flash cookie, as a browser would. */
async function post(
  session: string,
  fields: Record<string, string>,
  origin: string | null = ORIGIN,
) {
  const answer = (await action({
    request: request('/account', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: session,
        ...(origin && { Origin: origin }),
      },
    }),
    params: {},
    context: {},
  }).catch((thrown: unknown) => thrown)) as Response;
  return { status: answer.status, flash: answer.headers.get('Set-Cookie')?.split(';')[0] };
}

async function page(session: string, flash?: string) {
  const answer = await loader({
    request: request('/account', {
      headers: { Cookie: [session, flash].filter(Boolean).join('; ') },
    }),
    params: {},
    context: {},
  });
  const { data, init } = answer as unknown as {
    data: Page;
    init: { headers: Record<string, string> };
  };
  return { page: data, clears: init.headers['Set-Cookie'] };
}

describe('/account: the private feed', () => {
  it('sends a visitor without a session to /login, and refuses a POST from another site', async () => {
    expect(await call(loader, request('/account'))).toMatchObject({
      status: 302,
      location: '/login?returnUrl=%2Faccount',
    });
    const { session, user } = await signedIn();
    for (const origin of [null, 'https://evil.example']) {
      expect((await post(session, { intent: 'turn-on' }, origin)).status).toBe(403);
    }
    expect(await ReaderFeeds.stateOf(user.id)).toEqual({ on: false });
  });

  it('turns the feed on and shows its address once, after the redirect', async () => {
    const { session, user } = await signedIn();
    expect((await page(session)).page).toMatchObject({ state: { on: false } });
    const turnedOn = await post(session, { intent: 'turn-on' });
    expect(turnedOn.status).toBe(302);
    const shown = await page(session, turnedOn.flash);
    expect(shown.page.done).toBe('on');
    expect(shown.page.urls!.rss).toMatch(/\/reader-feed\/cff_[^/]+\/feed\.xml$/);
    expect(shown.page.urls!.json).toMatch(/\/feed\.json$/);
    expect(shown.page.urls!.opml).toMatch(/^\/reader-feed\/cff_[^/]+\/subscriptions\.opml$/);
    expect(shown.clears).toMatch(/cluefeed_account=;.*Max-Age=0/);
    const key = shown.page.urls!.rss.split('/')[4]!;
    expect((await ReaderFeeds.serve({ key, format: 'rss', origin: ORIGIN })).status).toBe(200);
    // Without the flash cookie (it was cleared), the page no longer shows the address.
    const later = await page(session);
    expect(later.page.urls).toBeUndefined();
    expect(later.page.state).toMatchObject({ on: true });
    expect(JSON.stringify(later.page)).not.toContain(key);
    expect((await ReaderFeeds.stateOf(user.id)).on).toBe(true);
  });

  it('rotates from the page as shown; a page another tab made stale says so', async () => {
    const { session, user } = await signedIn();
    await post(session, { intent: 'turn-on' });
    const { id } = (await ReaderFeeds.stateOf(user.id)) as { id: string };
    const rotated = await post(session, { intent: 'rotate', id });
    const shown = await page(session, rotated.flash);
    expect(shown.page.done).toBe('rotated');
    expect(shown.page.urls?.rss).toBeDefined();
    const stale = await post(session, { intent: 'rotate', id });
    expect((await page(session, stale.flash)).page.error).toBe(
      ReaderFeeds.READER_FEED_MESSAGES.changed,
    );
    const again = await post(session, { intent: 'turn-on' });
    expect((await page(session, again.flash)).page.error).toBe(
      ReaderFeeds.READER_FEED_MESSAGES.alreadyOn,
    );
  });

  it('turns the feed off, and answers a form without an intent', async () => {
    const { session, user } = await signedIn();
    await post(session, { intent: 'turn-on' });
    const { id } = (await ReaderFeeds.stateOf(user.id)) as { id: string };
    const off = await post(session, { intent: 'turn-off', id });
    const shown = await page(session, off.flash);
    expect(shown.page).toMatchObject({ done: 'off', state: { on: false } });
    expect(shown.page.urls).toBeUndefined();
    const none = await post(session, {});
    expect((await page(session, none.flash)).page.error).toBe(ACCOUNT_TEXTS.noIntent);
  });
});
