import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Articles from '#core/articles';
import * as Stories from '#core/stories';
import * as Streams from '#core/streams';
import { startFeedServer, type FeedServer } from '#tests/fakes/feed-server';
import { useOwnTable } from '#tests/integration/own-table';

// The builder's real joinArticles, which one test makes fail once (an import that stops after
// storing its articles).
vi.mock('#core/stories', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#core/stories')>();
  return { ...actual, joinArticles: vi.fn(actual.joinArticles) };
});

// Stories join whatever recent story they match: other files' articles stay out of this table.
useOwnTable('import-stories');

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(() => server.stop());

const context = {
  log: { debug() {}, info() {}, error() {}, child: () => context.log },
  progress: async () => {},
};

let weeks = 0;
/** An RFC 822 date, a week later for each feed, so no two tests' stories meet. */
const on = (time: string) =>
  new Date(Date.parse(`2026-11-${time}Z`) + weeks * 7 * 24 * 3_600_000).toUTCString();

/** A feed telling one event twice (two outlets' wording) and another event of the same kind. */
function outageFeed(): { url: string; links: string[] } {
  weeks += 1;
  const [chain, other] = [`Zelt${ulid().slice(-5)}`, `Quor${ulid().slice(-5)}`].map((name) =>
    name.toLowerCase().replace(/^./, (c) => c.toUpperCase()),
  );
  const base = `https://news.example/${ulid().toLowerCase()}`;
  const items = [
    [
      `${chain} sequencer outage: 42 minutes without blocks`,
      `A faulty configuration rollout stopped block production on ${chain} for 42 minutes on Tuesday.`,
      on('19T09:12:00'),
    ],
    [
      `${chain} network halts for 42 minutes`,
      `Transactions on ${chain} stalled for 42 minutes on Tuesday when a configuration change took down its sequencer, its team said.`,
      on('19T13:40:00'),
    ],
    [
      `${other} stops producing blocks for two hours after faulty upgrade`,
      `${other}'s sequencer halted for about two hours on Thursday after an upgrade introduced a fee bug. The release was rolled back.`,
      on('20T07:15:00'),
    ],
  ];
  const links = items.map((_, i) => `${base}/${i}`);
  const xml = items
    .map(
      ([title, summary, date], i) =>
        `<item><title>${title}</title><link>${links[i]}</link><description>${summary}</description><pubDate>${date}</pubDate></item>`,
    )
    .join('');
  return {
    url: server.put(
      `/outages/${ulid()}.xml`,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Outages</title>${xml}</channel></rss>`,
    ),
    links,
  };
}

async function storiesOf(links: string[]) {
  return Promise.all(links.map(async (link) => (await Articles.byUrl(link))?.storyId));
}

describe('Importing a stream groups its articles into stories', () => {
  it('puts two reports of one event in one story and leaves the other event on its own', async () => {
    const feed = outageFeed();
    const stream = await Streams.create({ name: 'Outages', url: feed.url });
    await Streams.importStream(stream, context);

    const [first, second, other] = await storiesOf(feed.links);
    const firstId = (await Articles.byUrl(feed.links[0]!))!.id;
    expect(first).toBe(firstId);
    expect(second).toBe(firstId);
    expect(other).toBe((await Articles.byUrl(feed.links[2]!))!.id);
    expect(await Stories.byId(firstId)).toMatchObject({ sourceCount: 2, revision: 2 });
  });

  it('joins the articles of a run that stopped after storing them when the feed is imported again', async () => {
    const feed = outageFeed();
    const stream = await Streams.create({ name: 'Outages', url: feed.url });
    vi.mocked(Stories.joinArticles).mockRejectedValueOnce(new Error('worker stopped'));

    await expect(Streams.importStream(stream, context)).rejects.toThrow('worker stopped');
    expect(await storiesOf(feed.links)).toEqual([undefined, undefined, undefined]);
    const stopped = (await Streams.byId(stream.id))!;
    expect(stopped.etag).toBeUndefined();

    // The redelivered job fetches the whole feed again (no validators were saved).
    await expect(Streams.importStream(stopped, context)).resolves.toMatchObject({
      new: 0,
      notModified: false,
    });
    const [first, second] = await storiesOf(feed.links);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(await Stories.byId(first!)).toMatchObject({ sourceCount: 2, revision: 2 });
  });

  it('joins nothing twice when the whole feed is fetched again', async () => {
    const feed = outageFeed();
    const stream = await Streams.create({ name: 'Outages', url: feed.url });
    await Streams.importStream(stream, context);
    const [first] = await storiesOf(feed.links);

    // A server that ignores validators: the same items again, all known.
    await Streams.importStream({ ...stream, etag: undefined, lastModified: undefined }, context);

    expect(await Stories.byId(first!)).toMatchObject({ sourceCount: 2, revision: 2 });
  });
});
