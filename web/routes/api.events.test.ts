// POST /api/events against DynamoDB Local, in a table of its own (its day's events are all this
// file's): the beacon attack of issue 32 item 3, and what a served page may count.
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { useOwnTable } from '#tests/integration/own-table';
import { loader as rootLoader } from '#web/root';
import { action } from './api.events';

useOwnTable('beacons');

const today = () => new Date().toISOString().slice(0, 10);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function send(body: unknown, { address = '10.2.0.1', userAgent = BROWSER } = {}) {
  const request = new Request('http://localhost/api/events', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': address,
      'User-Agent': userAgent,
    },
  });
  return action({ request, params: {}, context: {} });
}

/** A page served by the app: the root loader's token for its address. */
async function serve(path: string): Promise<string> {
  const request = new Request(`http://localhost${path}`);
  const { pageView } = await rootLoader({ request, params: {}, context: {} });
  return pageView;
}

const view = (token: string) => ({ name: 'page_view', token });

/** The campaign's visits as the operator's figures show them, after a rollup of today. */
async function visitsOf(utm: string): Promise<number> {
  await CampaignAnalytics.rollUpDay(today());
  const [day] = await CampaignAnalytics.daysStored(today(), today(), { consistent: true });
  return Object.entries(day?.counts?.campaigns ?? {})
    .filter(([key]) => key.startsWith(`visit\t${utm}\t`))
    .reduce((sum, [, n]) => sum + n, 0);
}

describe('POST /api/events', () => {
  it('stores the page view of a served page with its path, utm, raud and vus', async () => {
    const path = `/p/${ulid().toLowerCase()}`;
    const token = await serve(`${path}?utm=launch&raud=defi&vus=ip`);
    expect((await send(view(token))).status).toBe(204);
    const events = await Analytics.forDay(today());
    expect(events.find((e) => e.path === path)).toMatchObject({
      utm: 'launch',
      raud: 'defi',
      vus: 'ip',
    });
  });

  it('refuses an unknown event, and a page view without its token, with a 400', async () => {
    for (const [body, message] of [
      [{ name: 'purchase', path: '/' }, 'Unknown event'],
      [{ name: 'page_view', path: '/', utm: 'spring' }, Analytics.PAGE_VIEW_TOKEN_MESSAGES.invalid],
    ] as const) {
      const response = await send(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'input.invalid', message } });
    }
  });

  it('does not count a known bot, and its page still counts for the next browser', async () => {
    const path = `/a/${ulid().toLowerCase()}`;
    const token = await serve(path);
    expect((await send(view(token), { userAgent: GOOGLEBOT })).status).toBe(204);
    expect((await Analytics.forDay(today())).filter((e) => e.path === path)).toEqual([]);
    expect((await send(view(token))).status).toBe(204);
    expect((await Analytics.forDay(today())).filter((e) => e.path === path)).toHaveLength(1);
  });

  it('gives 1,000 beacons from 10 addresses no more items or visits than pages served', async () => {
    const utm = `spring-launch-${ulid().toLowerCase().slice(-8)}`;
    // Two visitors open the campaign's landing page; the rollup shows their two visits.
    for (const token of [await serve(`/?utm=${utm}`), await serve(`/?utm=${utm}`)])
      expect((await send(view(token))).status).toBe(204);
    expect(await visitsOf(utm)).toBe(2);
    const itemsBefore = (await Analytics.forDay(today())).length;

    // The attacker fetches three pages of the campaign, then sends 1,000 beacons from 10
    // addresses (100 each, under the per-address limit): a third replay the three tokens, a
    // third carry none (as beacons did before), a third forged or altered ones.
    const tokens = await Promise.all([1, 2, 3].map(() => serve(`/?utm=${utm}`)));
    const forged = (i: number) => {
      const [body] = tokens[i % 3]!.split('.');
      return i % 2 ? `${body}.${'A'.repeat(43)}` : `${ulid()}.${ulid()}`;
    };
    const beacons = Array.from({ length: 1000 }, (_, i) =>
      i % 3 === 0
        ? view(tokens[(i / 3) % 3]!)
        : i % 3 === 1
          ? { name: 'page_view', path: '/', utm, vus: 'sp' }
          : view(forged(i)),
    );
    const statuses: number[] = [];
    for (let start = 0; start < beacons.length; start += 50) {
      const batch = beacons.slice(start, start + 50);
      const answers = await Promise.all(
        batch.map((body, i) => send(body, { address: `10.32.0.${(start + i) % 10}` })),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    // Replays are answered like any view (204); the rest are refused; none is rate limited.
    expect(statuses.filter((status) => status === 204)).toHaveLength(334);
    expect(statuses.filter((status) => status === 400)).toHaveLength(666);

    // At most one item per page fetched, and the campaign's visits moved by exactly those pages.
    expect((await Analytics.forDay(today())).length - itemsBefore).toBe(3);
    expect(await visitsOf(utm)).toBe(2 + 3);
  }, 120_000);
});
