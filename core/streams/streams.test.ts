import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Articles from '#core/articles';
import type { Logger, LogFields } from '#core/logs';
import * as Streams from '#core/streams';
import { startFeedServer, type FeedServer } from '#tests/fakes/feed-server';

let server: FeedServer;

beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(() => server.stop());

/** A job context that remembers what was logged. */
function recordingContext() {
  const lines: { level: string; message: string; fields?: LogFields }[] = [];
  const log: Logger = {
    debug: (message, fields) => lines.push({ level: 'debug', message, fields }),
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
    child: () => log,
  };
  return { log, lines, progress: vi.fn(async (_fraction: number, _note?: string) => {}) };
}

/** An RSS feed of made-up stories, unique to this call, served from memory; returns its URL. */
function uniqueFeed(count: number, prefix = `story-${ulid().toLowerCase()}`): string {
  const items = Array.from(
    { length: count },
    (_, i) => `<item><title>${prefix} number ${i}</title>
      <link>https://news.example/${prefix}/${i}?utm_source=rss</link>
      <description>Text of ${prefix} number ${i}, about staking and rollups.</description>
      <pubDate>Fri, 20 Nov 2026 0${i % 10}:00:00 GMT</pubDate></item>`,
  );
  return server.put(
    `/unique/${ulid()}.xml`,
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Unique</title>${items.join('')}</channel></rss>`,
  );
}

async function streamFor(url: string, name = 'Test stream'): Promise<Streams.Stream> {
  return Streams.create({ name, url });
}

describe('Streams.create', () => {
  it('adds a feed URL once: the same name again answers with the stream already added', async () => {
    const host = `feeds-${ulid().toLowerCase()}.example`;
    const first = await Streams.create({ name: ' Blocknotes ', url: `https://${host}/rss/` });
    expect(first).toMatchObject({ name: 'Blocknotes', url: `https://${host}/rss` });
    const again = await Streams.create({
      name: 'Blocknotes',
      url: `HTTPS://${host.toUpperCase()}/rss?utm_source=newsletter#top`,
    });
    expect(again.id).toBe(first.id);
    expect((await Streams.list()).filter((stream) => stream.url.includes(host))).toHaveLength(1);
    expect(await Streams.byUrl(`https://${host}/rss`)).toMatchObject({ id: first.id });
  });

  it('refuses a known feed URL under another name, naming its stream and changing nothing', async () => {
    const host = `feeds-${ulid().toLowerCase()}.example`;
    const first = await Streams.create({ name: 'Blocknotes', url: `https://${host}/rss` });
    const taken = {
      code: 'stream.url_taken',
      message: 'This feed URL is already added as "Blocknotes"',
      status: 409,
    };
    const typed = { name: 'Another name', url: `https://${host.toUpperCase()}/rss/` };
    await expect(Streams.create(typed)).rejects.toMatchObject(taken);
    await expect(Streams.assertNew(typed)).rejects.toMatchObject(taken);
    await expect(
      Streams.assertNew({ name: 'Blocknotes', url: `https://${host}/rss` }),
    ).rejects.toMatchObject(taken);
    await expect(
      Streams.assertNew({ name: 'New', url: `https://${host}/other` }),
    ).resolves.toBeUndefined();
    const streams = (await Streams.list()).filter((stream) => stream.url.includes(host));
    expect(streams).toEqual([first]);
  });

  it('refuses a missing name or an invalid feed URL with a clear message', async () => {
    const url = 'https://valid.example/feed.xml';
    await expect(Streams.create({ name: '  ', url })).rejects.toMatchObject({
      name: 'VisibleError',
      code: 'input.invalid',
      message: 'Please add a stream name',
    });
    await expect(Streams.create({ name: 'x'.repeat(101), url })).rejects.toMatchObject({
      message: 'A stream name has at most 100 characters',
    });
    for (const bad of ['', 'not a url', 'ftp://files.example/feed.xml', 'javascript:alert(1)']) {
      await expect(Streams.create({ name: 'Feed', url: bad })).rejects.toMatchObject({
        code: 'input.invalid',
        message: 'Please add a valid feed URL',
      });
    }
  });
});

describe('Streams.importStream', () => {
  it('stores the articles, then a re-import is answered 304 and stores nothing', async () => {
    const stream = await streamFor(uniqueFeed(5));
    const context = recordingContext();
    const before = await Articles.count();

    expect(await Streams.importStream(stream, context)).toEqual({
      found: 5,
      new: 5,
      duplicates: 0,
      notModified: false,
    });
    expect(await Articles.count()).toBe(before + 5);
    const imported = (await Streams.byId(stream.id))!;
    expect(imported).toMatchObject({ consecutiveFailures: 0 });
    expect(imported.etag).toMatch(/^"[\da-f]+"$/);
    expect(imported.lastModified).toMatch(/GMT$/);
    expect(JSON.parse(imported.lastResult!)).toEqual({
      found: 5,
      new: 5,
      duplicates: 0,
      notModified: false,
    });
    expect(context.progress).toHaveBeenCalledWith(0.5, 'Storing 5 new article(s) from Test stream');

    expect(await Streams.importStream(imported, context)).toEqual({
      found: 0,
      new: 0,
      duplicates: 0,
      notModified: true,
    });
    expect(await Articles.count()).toBe(before + 5);
    const path = new URL(stream.url).pathname;
    expect(server.hits(path)).toBe(2);
  });

  it('drops stories already stored from another feed, by canonical URL and by fingerprint', async () => {
    const names = [
      'blocknotes.xml',
      'chainwire-daily.xml',
      'validator-weekly.json',
      'protocol-review.xml',
    ];
    const streams = await Promise.all(names.map((name) => streamFor(server.url(`/${name}`), name)));
    const results = [];
    for (const stream of streams)
      results.push(await Streams.importStream(stream, recordingContext()));
    expect(results).toEqual([
      { found: 8, new: 8, duplicates: 0, notModified: false },
      // The Fusaka story links to Blocknotes with other tracking parameters; one item has no link.
      { found: 8, new: 6, duplicates: 1, notModified: false },
      { found: 6, new: 6, duplicates: 0, notModified: false },
      // The Lumen Labs press release, already stored from Validator Weekly under another URL.
      { found: 6, new: 5, duplicates: 1, notModified: false },
    ]);

    const fusaka = await Articles.byUrl(
      'https://blocknotes.example/2026/11/fusaka-mainnet-date-set',
    );
    expect(fusaka).toMatchObject({
      title: 'Ethereum core developers set the Fusaka mainnet date',
      source: 'blocknotes.xml',
      streamId: streams[0]!.id,
      publishedAt: '2026-11-21T14:05:00.000Z',
      image: 'https://cdn.blocknotes.example/images/fusaka-call.jpg',
      author: 'Ines Okafor',
    });
    expect(fusaka!.content).toContain(
      '<a href="https://blocknotes.example/2026/10/peerdas-explained" rel="nofollow noopener noreferrer">',
    );
    expect(
      await Articles.byUrl('https://validatorweekly.example/news/lumen-labs-series-a'),
    ).toBeDefined();
    expect(
      await Articles.byUrl(
        'https://protocolreview.example/2026/11/lumen-labs-raises-24m-zk-coprocessor',
      ),
    ).toBeUndefined();
    const outage = await Articles.byUrl(
      'https://blocknotes.example/2026/11/base-sequencer-outage-postmortem',
    );
    expect(outage!.content).not.toContain('script');
  });

  it('stores a story once when two feeds carry it at the same time', async () => {
    const prefix = `shared-${ulid().toLowerCase()}`;
    const streams = await Promise.all([
      streamFor(uniqueFeed(6, prefix)),
      streamFor(uniqueFeed(6, prefix)),
    ]);
    const results = await Promise.all(
      streams.map((stream) => Streams.importStream(stream, recordingContext())),
    );
    expect(results.reduce((sum, result) => sum + result.new, 0)).toBe(6);
    expect(results.reduce((sum, result) => sum + result.duplicates, 0)).toBe(6);
  });

  it('fails a malformed feed with a clear error and leaves other streams and articles intact', async () => {
    const good = await streamFor(uniqueFeed(3));
    await Streams.importStream(good, recordingContext());
    const before = await Articles.count();
    const broken = await streamFor(server.url('/malformed.xml'), 'Gasless Gazette');

    await expect(Streams.importStream(broken, recordingContext())).rejects.toMatchObject({
      name: 'FeedError',
      code: 'feed.malformed',
      message: expect.stringMatching(/^Feed is not well-formed XML \(line \d+, column \d+\)/),
    });
    const failed = (await Streams.byId(broken.id))!;
    expect(failed.lastError).toMatch(/^Feed is not well-formed XML/);
    expect(failed.consecutiveFailures).toBe(1);
    expect(failed.backoffUntil).toBeUndefined();
    expect(await Articles.count()).toBe(before);
    expect(await Streams.byId(good.id)).toMatchObject({ consecutiveFailures: 0 });
    expect(JSON.parse((await Streams.byId(good.id))!.lastResult!)).toMatchObject({ new: 3 });
  });

  it('clears the failure count and error after a successful import', async () => {
    const path = `/recovering/${ulid()}.xml`;
    const stream = await streamFor(server.url(path));
    await expect(Streams.importStream(stream, recordingContext())).rejects.toMatchObject({
      code: 'feed.http_status',
      message: 'Feed answered HTTP 404',
    });
    server.put(path, '<rss version="2.0"><channel><title>Back</title></channel></rss>');
    await Streams.importStream(stream, recordingContext());
    const recovered = (await Streams.byId(stream.id))!;
    expect(recovered.consecutiveFailures).toBe(0);
    expect(recovered.lastError).toBeUndefined();
  });
});

// importAll works on every stream in the table, so these tests start from none.
describe('Streams.importAll', () => {
  it('pauses a stream after three failures in a row, and importAll skips it', async () => {
    await Streams.clearAll();
    const stream = await streamFor(server.url('/status/503'), 'Flaky');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await expect(Streams.importStream(stream, recordingContext())).rejects.toMatchObject({
        code: 'feed.http_status',
        message: 'Feed answered HTTP 503',
      });
    }
    const paused = (await Streams.byId(stream.id))!;
    expect(paused.consecutiveFailures).toBe(3);
    const pauseMs = Date.parse(paused.backoffUntil!) - Date.now();
    expect(pauseMs).toBeGreaterThan(4 * 60_000);
    expect(pauseMs).toBeLessThanOrEqual(5 * 60_000);

    const hits = server.hits('/status/503');
    const summary = await Streams.importAll(recordingContext());
    expect(summary).toMatchObject({ feeds: 1, skipped: 1, imported: 0, failed: 0 });
    expect(server.hits('/status/503')).toBe(hits);

    // A fourth failure (an operator's explicit import) doubles the pause.
    await expect(Streams.importStream(paused, recordingContext())).rejects.toThrow();
    const longer = Date.parse((await Streams.byId(stream.id))!.backoffUntil!) - Date.now();
    expect(longer).toBeGreaterThan(9 * 60_000);
  });

  it('imports every due stream and totals new, duplicate, 304, failed and skipped feeds', async () => {
    await Streams.clearAll();
    const prefix = `totals-${ulid().toLowerCase()}`;
    const unchanged = await streamFor(uniqueFeed(2), 'Unchanged');
    await Streams.importStream(unchanged, recordingContext());
    const fresh = await streamFor(uniqueFeed(4, prefix), 'Fresh');
    const copy = await streamFor(uniqueFeed(4, prefix), 'Copy');
    const broken = await streamFor(server.url('/status/500'), 'Broken');
    const context = recordingContext();

    const summary = await Streams.importAll(context);

    expect(summary).toEqual({
      feeds: 4,
      imported: 2,
      notModified: 1,
      failed: 1,
      skipped: 0,
      paused: 0,
      newArticles: 4,
      duplicates: 4,
      failures: [
        { streamId: broken.id, name: 'Broken', url: broken.url, error: 'Feed answered HTTP 500' },
      ],
    });
    expect(context.lines.filter((line) => line.level === 'error')).toEqual([
      {
        level: 'error',
        message: 'Could not import Broken: Feed answered HTTP 500',
        fields: { streamId: broken.id, url: broken.url, code: 'feed.http_status' },
      },
    ]);
    expect(context.progress).toHaveBeenCalledTimes(4);
    expect(context.progress).toHaveBeenLastCalledWith(1, '4 of 4 feeds imported');
    const stored = await Promise.all([Streams.byId(fresh.id), Streams.byId(copy.id)]);
    expect(stored.map((stream) => JSON.parse(stream!.lastResult!).found)).toEqual([4, 4]);
  });

  it('clears every stream and article with their claims', async () => {
    const url = uniqueFeed(2);
    const stream = await streamFor(url);
    await Streams.importStream(stream, recordingContext());
    const [article] = await Articles.latest(1);
    // Other files of this worker's table store or delete articles without the counter, so the
    // counter is checked to move by exactly what was cleared rather than to reach zero.
    const before = await Articles.count();
    expect(before).toBeGreaterThan(0);

    const cleared = await Articles.clearAll();
    expect(cleared).toBeGreaterThanOrEqual(2);
    expect(await Articles.count()).toBe(before - cleared);
    expect(await Articles.latest(10)).toEqual([]);
    expect(await Articles.byUrl(article!.canonicalUrl)).toBeUndefined();
    const { id: _id, importedAt: _importedAt, ...input } = article!;
    expect(await Articles.storeIfNew(input)).toBe('new');

    expect(await Streams.clearAll()).toBeGreaterThanOrEqual(1);
    expect(await Streams.list()).toEqual([]);
    expect(await Streams.byUrl(url)).toBeUndefined();
    expect((await Streams.create({ name: 'Again', url })).id).not.toBe(stream.id);
  });
});

describe('pausing, resuming and removing a stream', () => {
  const hitsOf = (stream: Streams.Stream) => server.hits(new URL(stream.url).pathname);

  it('a paused stream is skipped by imports until it is resumed', async () => {
    await Streams.clearAll();
    const stream = await streamFor(uniqueFeed(2), 'Paused');
    const paused = await Streams.pause(stream.id);
    expect(paused.pausedAt).toBeDefined();
    expect((await Streams.byId(stream.id))?.pausedAt).toBe(paused.pausedAt);

    expect(await Streams.importAll(recordingContext())).toMatchObject({
      feeds: 1,
      imported: 0,
      paused: 1,
    });
    expect(hitsOf(stream)).toBe(0);

    expect((await Streams.resume(stream.id)).pausedAt).toBeUndefined();
    expect(await Streams.importAll(recordingContext())).toMatchObject({ imported: 1, paused: 0 });
    expect(hitsOf(stream)).toBe(1);
  });

  it('says what is wrong with a pause, resume or removal that cannot be done', async () => {
    const stream = await streamFor(uniqueFeed(1), 'Twice');
    await Streams.pause(stream.id);
    await expect(Streams.pause(stream.id)).rejects.toMatchObject({
      code: 'stream.already_paused',
      status: 409,
    });
    await Streams.resume(stream.id);
    await expect(Streams.resume(stream.id)).rejects.toMatchObject({
      code: 'stream.not_paused',
      status: 409,
    });
    for (const id of [ulid(), 'not-an-id']) {
      for (const operation of [Streams.pause, Streams.resume, Streams.remove]) {
        await expect(operation(id)).rejects.toMatchObject({
          message: 'This stream no longer exists',
          status: id === 'not-an-id' ? 400 : 404,
        });
      }
    }
  });

  it('removes a stream and its URL claim, keeps its articles, and the URL can be added again', async () => {
    const url = uniqueFeed(3);
    const stream = await streamFor(url, 'Removed');
    await Streams.importStream(stream, recordingContext());
    const before = await Articles.count();

    expect((await Streams.remove(stream.id)).id).toBe(stream.id);

    expect(await Streams.byId(stream.id)).toBeUndefined();
    expect(await Streams.byUrl(url)).toBeUndefined();
    expect((await Streams.list()).map(({ id }) => id)).not.toContain(stream.id);
    expect(await Articles.count()).toBe(before);
    expect((await Streams.create({ name: 'Added again', url })).id).not.toBe(stream.id);
  });

  it('two pauses, resumes or removals at the same moment: one is done, the other is told', async () => {
    for (let round = 0; round < 8; round++) {
      const stream = await streamFor(uniqueFeed(1), `Race ${round}`);
      const pauses = await Promise.allSettled([Streams.pause(stream.id), Streams.pause(stream.id)]);
      expect(pauses.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
      const resumes = await Promise.allSettled([
        Streams.resume(stream.id),
        Streams.resume(stream.id),
      ]);
      expect(resumes.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
      const removals = await Promise.allSettled([
        Streams.remove(stream.id),
        Streams.remove(stream.id),
      ]);
      expect(removals.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = removals.find((removal) => removal.status === 'rejected');
      expect(refused).toMatchObject({ reason: { code: 'stream.not_found', status: 404 } });
      expect(await Streams.byUrl(stream.url)).toBeUndefined();
    }
  });

  it('a stream removed while its import stores articles stays removed; the import ends well', async () => {
    const url = uniqueFeed(4);
    const stream = await streamFor(url, 'Removed mid-import');
    const context = recordingContext();
    // Called once the feed was fetched, before its articles are stored and the result recorded.
    context.progress.mockImplementationOnce(async () => {
      await Streams.remove(stream.id);
    });

    await expect(Streams.importStream(stream, context)).resolves.toMatchObject({ new: 4 });

    expect(await Streams.byId(stream.id)).toBeUndefined();
    expect(await Streams.byUrl(url)).toBeUndefined();
  });

  it('a run skips a stream paused or removed after it began, if its fetch had not started', async () => {
    await Streams.clearAll();
    // One more than the run fetches at once, and one more: the last two wait for a free place.
    const streams = [];
    for (let index = 0; index < Streams.IMPORT_CONCURRENCY + 2; index++)
      streams.push(await streamFor(uniqueFeed(1), `Run ${String(index).padStart(2, '0')}`));
    const [pausedLater, removedLater] = streams.slice(-2) as [Streams.Stream, Streams.Stream];
    const context = recordingContext();
    // The first feed to finish pauses one waiting stream and removes the other; every finished
    // feed waits for that, so no place frees up before both are done.
    let changes: Promise<unknown> | undefined;
    context.progress.mockImplementation(async () => {
      changes ??= Promise.all([Streams.pause(pausedLater.id), Streams.remove(removedLater.id)]);
      await changes;
    });

    const summary = await Streams.importAll(context);

    expect(summary).toMatchObject({
      feeds: streams.length,
      imported: Streams.IMPORT_CONCURRENCY,
      paused: 2,
      failed: 0,
    });
    expect(hitsOf(pausedLater)).toBe(0);
    expect(hitsOf(removedLater)).toBe(0);
    expect((await Streams.byId(pausedLater.id))?.pausedAt).toBeDefined();
    expect(await Streams.byId(removedLater.id)).toBeUndefined();
  });
});
