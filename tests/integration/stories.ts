// One event told by several sources, stored and grouped into a story by the story builder, for
// tests and journeys of what readers see of stories (ADR 0063).
import { readFileSync } from 'node:fs';
import { ulid } from 'ulid';
import * as Articles from '#core/articles';
import * as Feeds from '#core/feeds';
import * as Stories from '#core/stories';
import { createArticle } from './factories';

const DAY_MS = 24 * 3_600_000;
/** Events are dated apart (far beyond the builder's window), so no two calls' reports meet. */
const EVENT_SPAN_DAYS = 20 * 365;

/**
 * Four reports of one bridge hack (by The Block, CoinDesk, Decrypt, Blockworks) and an unrelated
 * one, from `start` on over a day: by default a random day far ahead, so no two calls' reports
 * meet. A journey, whose articles other readers' scoring runs read as the newest, gives a recent
 * start and makes one event per run.
 */
export function bridgeHack(
  start = Date.UTC(2040, 0, 1) + Math.floor(Math.random() * EVENT_SPAN_DAYS) * DAY_MS,
) {
  const name = `Umbra${ulid().slice(-6)}`;
  const at = (hours: number) => new Date(start + hours * 3_600_000).toISOString();
  return {
    name,
    reports: [
      {
        title: `${name} bridge drained of $40 million in private key exploit`,
        summary: `Attackers drained roughly $40 million from the ${name} cross-chain bridge on Tuesday after compromising a validator private key. The team paused deposits and said user funds on the destination chain are safe.`,
        source: 'The Block',
        publishedAt: at(8),
      },
      {
        title: `${name} bridge exploited: $40M stolen after validator key compromise`,
        summary: `The ${name} bridge lost about $40 million on Tuesday when an attacker used a compromised validator private key to approve fake withdrawals. Deposits are paused while the team investigates.`,
        source: 'CoinDesk',
        publishedAt: at(10),
      },
      {
        title: `${name} bridge says it will repay users after $40 million key exploit`,
        summary: `${name}, the cross-chain bridge drained of $40 million this week through a stolen validator private key, said its treasury will cover user losses and deposits will reopen next week.`,
        source: 'Decrypt',
        publishedAt: at(25),
      },
      {
        title: `${name} bridge hack: how a stolen validator key drained $40 million`,
        summary: `A compromised validator private key let an attacker drain $40 million from the ${name} cross-chain bridge; deposits stay paused and the team promises to cover losses.`,
        source: 'Blockworks',
        publishedAt: at(28),
      },
    ],
    other: {
      title: `Kestrel${name} lending protocol loses $3 million to oracle manipulation`,
      summary: `An attacker manipulated a thinly traded price feed to borrow $3 million from the Kestrel${name} lending markets on Arbitrum, using a flash loan to inflate collateral value.`,
      source: 'The Defiant',
      publishedAt: at(9),
    },
  };
}

/** An item of a fixture feed as the import normalises it (the stream named as the feed is). */
function fixtureItem(file: string, streamName: string, title: RegExp) {
  const body = readFileSync(new URL(`../fixtures/feeds/${file}`, import.meta.url), 'utf8');
  const item = Feeds.parseFeed(body).items.find((candidate) => title.test(candidate.title ?? ''));
  const article =
    item &&
    Feeds.normaliseItem(item, {
      streamId: ulid(),
      streamName,
      feedUrl: `https://fixtures.example/${file}`,
    });
  if (!article) throw new Error(`No item ${title} in ${file}`);
  return { ...article, fingerprint: Feeds.fingerprint(article) };
}

/**
 * The Base sequencer outage as two fixture feeds carry it (Blocknotes, Chainwire Daily), and two
 * later reports of it from other sources, which join its story when stored.
 */
export function baseOutage() {
  return {
    fixtures: [
      fixtureItem('blocknotes.xml', 'Blocknotes', /^Base sequencer outage/),
      fixtureItem('chainwire-daily.xml', 'Chainwire Daily', /^Coinbase's Base network halts/),
    ],
    later: [
      {
        title: 'Base sequencer outage halted block production for 42 minutes',
        summary:
          'Block production on Base stopped for 42 minutes on Tuesday after a configuration change to its sequencer; Coinbase said no funds were at risk while bridges paused withdrawals.',
        source: 'The Block',
        publishedAt: '2026-11-19T18:00:00.000Z',
      },
      {
        title: 'Base post-mortem: sequencer configuration change behind 42-minute halt',
        summary:
          "Coinbase's Base network traced Tuesday's 42-minute halt to a sequencer configuration change rolled out to every region at once, and says no funds were at risk.",
        source: 'Decrypt',
        publishedAt: '2026-11-20T09:00:00.000Z',
      },
    ],
  };
}

/** Stores reports and groups them into stories, as an import does. */
export async function storeReports(
  reports: Parameters<typeof createArticle>[0][],
): Promise<Articles.Article[]> {
  const stored = [];
  for (const report of reports) stored.push(await createArticle(report));
  await Stories.joinArticles(stored.map((article) => article.id));
  return Promise.all(stored.map(async (article) => (await Articles.byId(article.id))!));
}
