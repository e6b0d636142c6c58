import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import { config } from '#core/config';
import type { StoredMessage } from '#core/mail';
import { MailingListError, mailingList } from '#core/mailing-list';
import { signedInAdmin } from '#web/lib/admin.server.test-helpers';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { loader } from './outbox.message';
import { loader as pageLoader, OUTBOX_PAGE_SIZE } from './outbox';

// Its pages are the newest e-mails of the table: e-mails other files queue (a worker of theirs
// still sending) must not move them between two loads.
useOwnTable('outbox-pages');

async function storedMessage(html: string): Promise<string> {
  const id = ulid();
  const message: StoredMessage = {
    id,
    receivedAt: new Date().toISOString(),
    from: 'newsletter@cluefeed.xyz',
    to: ['reader@example.org'],
    subject: 'Confirm your Cluefeed subscription',
    text: 'Confirm: https://cluefeed.example/confirm',
    html,
    headers: {},
  };
  const dir = config().MAIL_DIR!;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.json`), JSON.stringify(message));
  return id;
}

async function served(id: string): Promise<Response> {
  const { cookie } = await signedInAdmin();
  const request = new Request(`http://localhost:3000/admin-panel/outbox/${id}`, {
    headers: { Cookie: cookie },
  });
  return loader({ request, params: { id }, context: {} });
}

describe('an Outbox message', () => {
  it('opens its links in new tabs that leave the sandbox, and runs nothing', async () => {
    const id = await storedMessage(
      '<html><head><title>x</title></head><body><a href="https://cluefeed.example/confirm">Confirm my subscription</a></body></html>',
    );
    const response = await served(id);
    const html = await response.text();
    expect(html).toMatch(/^<html><head><base target="_blank"><title>/);
    const policy = response.headers.get('Content-Security-Policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src/);
    expect(policy).toContain('sandbox allow-popups allow-popups-to-escape-sandbox');
  });

  it('gives a message without a head the same base', async () => {
    const id = await storedMessage('<p><a href="https://cluefeed.example/">Open</a></p>');
    expect(await (await served(id)).text()).toBe(
      '<base target="_blank"><p><a href="https://cluefeed.example/">Open</a></p>',
    );
  });
});

describe('the Outbox page', () => {
  async function rowFor(email: string) {
    const { cookie } = await signedInAdmin();
    // Searched for: other files' mail in the shared sink cannot push the row off the page.
    const search = new URLSearchParams({ to: email });
    const request = new Request(`http://localhost:3000/admin-panel/outbox?${search}`, {
      headers: { Cookie: cookie },
    });
    const { rows } = await pageLoader({ request, params: {}, context: {} });
    return rows.find((row) => row.to === email);
  }

  it('shows an e-mail queued, then sent with its time beside the copy the sink received', async () => {
    const audience = await createAudience();
    const email = `outbox-${ulid().toLowerCase()}@example.org`;
    await Subscribers.subscribe({ email, audienceId: audience.id });
    expect(await rowFor(email)).toMatchObject({
      subject: 'Confirm your Cluefeed subscription',
      state: { status: 'queued', attempts: 0 },
    });
    expect((await rowFor(email))?.copyId).toBeUndefined();
    await Outbox.deliverDue();
    const sent = await rowFor(email);
    expect(sent).toMatchObject({ state: { status: 'sent', attempts: 1 } });
    expect(sent?.state?.sentAt).toEqual(expect.any(String));
    expect(sent?.copyId).toEqual(expect.any(String));
    const framed = await served(sent!.copyId!);
    expect(await framed.text()).toContain('Confirm my subscription');
  });

  it('shows a change told to the mailing list as a row of its own: retried with its reason, then sent, without a copy', async () => {
    const audience = await createAudience();
    const email = `outbox-${ulid().toLowerCase()}@example.org`;
    const { subscriber } = await Subscribers.subscribe({ email, audienceId: audience.id });
    const confirm = new URL(Subscribers.subscriberLinks(subscriber).confirmUrl);
    await Subscribers.confirm(confirm.searchParams.get('subscriberHash'));
    const reason = 'Mailchimp upsert member failed with 503 Service Unavailable';
    const down = vi
      .spyOn(mailingList(), 'upsertMember')
      .mockRejectedValueOnce(new MailingListError('mailing_list.unavailable', reason, 503));
    try {
      await Outbox.deliverDue();
      expect(await rowFor(email)).toMatchObject({
        subject: 'Mailing list: subscribe the member, with its tags',
        state: { status: 'queued', attempts: 1, lastError: reason },
      });
      await Outbox.deliverDue({ at: Date.now() + Outbox.retryDelayMs(1) + 1_000 });
      const told = await rowFor(email);
      expect(told).toMatchObject({ state: { status: 'sent', attempts: 2 } });
      expect(told?.copyId).toBeUndefined();
    } finally {
      down.mockRestore();
    }
  });
});

describe('the Outbox pages', () => {
  // The page adds copies the mail sink holds without an e-mail of the table: other files' mail
  // arriving between two loads would move the pages, so these tests read a sink of their own.
  const settings = config() as { MAIL_DIR?: string };
  let sharedSink: string | undefined;
  beforeAll(async () => {
    sharedSink = settings.MAIL_DIR;
    settings.MAIL_DIR = await mkdtemp(join(tmpdir(), 'outbox-pages-'));
  });
  afterAll(() => {
    settings.MAIL_DIR = sharedSink;
  });

  async function page(search: string) {
    const { cookie } = await signedInAdmin();
    const request = new Request(`http://localhost:3000/admin-panel/outbox${search}`, {
      headers: { Cookie: cookie },
    });
    return pageLoader({ request, params: {}, context: {} });
  }

  it("shows ten e-mails a page, newest first, the next page continuing where it stopped, or one recipient's", async () => {
    const audience = await createAudience();
    const addresses: string[] = [];
    for (let n = 0; n < OUTBOX_PAGE_SIZE + 2; n += 1) {
      addresses.push(`paged-${n}-${ulid().toLowerCase()}@example.org`);
      await Subscribers.subscribe({ email: addresses[n]!, audienceId: audience.id });
    }
    const first = await page('');
    expect(first.rows).toHaveLength(OUTBOX_PAGE_SIZE);
    expect(first.page).toBe(1);
    expect(first.pages).toBeGreaterThanOrEqual(2);
    const second = await page('?page=2');
    expect(second.page).toBe(2);
    const firstKeys = new Set(first.rows.map((row) => row.key));
    expect(second.rows.some((row) => firstKeys.has(row.key))).toBe(false);
    expect(second.rows[0]!.at <= first.rows.at(-1)!.at).toBe(true);

    // One recipient's e-mails, whatever page they were on.
    const oldest = await page(`?to=${encodeURIComponent(addresses[0]!.toUpperCase())}`);
    expect(oldest.rows.map((row) => row.to)).toEqual([addresses[0]]);
    expect(oldest).toMatchObject({ page: 1, pages: 1, to: addresses[0]!.toUpperCase() });
  });

  it("finds one recipient's e-mail however much newer mail the sink holds", async () => {
    const audience = await createAudience();
    const email = `buried-${ulid().toLowerCase()}@example.org`;
    await Subscribers.subscribe({ email, audienceId: audience.id });
    // More copies than the page looks through, all newer than the e-mail, none to its recipient.
    for (let n = 0; n < 101; n += 1) await storedMessage('<p>Another reader</p>');
    expect((await page('')).rows.some((row) => row.to === email)).toBe(false);
    const found = await page(`?to=${encodeURIComponent(email)}`);
    expect(found.rows.map((row) => [row.to, row.subject])).toEqual([
      [email, 'Confirm your Cluefeed subscription'],
    ]);
  });

  it('refuses a page that is not a whole number from 1 with a 400, and one past the end with a 404', async () => {
    for (const bad of ['0', '-1', 'two', '1.5']) {
      await expect(page(`?page=${bad}`)).rejects.toMatchObject({ status: 400 });
    }
    await expect(page('?page=9999')).rejects.toMatchObject({ status: 404 });
  });
});
