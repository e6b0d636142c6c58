import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  canonicalUrl,
  fetchFeed,
  fingerprint,
  isPrivateAddress,
  normaliseItem,
  parseFeed,
  type FeedItem,
} from '#core/feeds';
import { FIXTURE_FEEDS_DIR, startFeedServer, type FeedServer } from '#tests/fakes/feed-server';
import { freePort } from '#scripts/local/net';

const fixture = (name: string) => readFileSync(join(FIXTURE_FEEDS_DIR, name), 'utf8');
const source = { streamId: 's1', streamName: 'Blocknotes', feedUrl: 'https://site.example/feed/' };

describe('parseFeed', () => {
  it('reads RSS 2.0 with content:encoded, Media RSS, enclosures and dc:creator', () => {
    const feed = parseFeed(fixture('blocknotes.xml'));
    expect(feed.title).toBe('Blocknotes');
    expect(feed.items).toHaveLength(8);
    expect(feed.items[0]).toMatchObject({
      url: 'https://blocknotes.example/2026/11/fusaka-mainnet-date-set?utm_source=rss&utm_medium=feed&utm_campaign=daily',
      id: 'blocknotes-2026-11-0142',
      title: 'Ethereum core developers set the Fusaka mainnet date',
      image: 'https://cdn.blocknotes.example/images/fusaka-call.jpg',
      author: 'Ines Okafor',
      publishedAt: 'Sat, 21 Nov 2026 14:05:00 +0000',
    });
    expect(feed.items[0]!.contentHtml).toContain('<h2>What operators need to do</h2>');
    expect(feed.items.map((item) => item.image)).toEqual([
      'https://cdn.blocknotes.example/images/fusaka-call.jpg',
      'https://cdn.blocknotes.example/images/csm-operators.png',
      'https://cdn.blocknotes.example/images/base-outage-small.jpg',
      'https://cdn.blocknotes.example/images/hooks-audit-thumb.jpg',
      'https://cdn.blocknotes.example/images/eigen-slashing.webp',
      'https://cdn.blocknotes.example/images/stablecoin-supply.png',
      undefined,
      'https://cdn.blocknotes.example/images/superchain-stages.jpg',
    ]);
  });

  it('reads RSS descriptions written as escaped HTML and items that have only a guid', () => {
    const { items } = parseFeed(fixture('chainwire-daily.xml'));
    expect(items).toHaveLength(8);
    expect(items[1]!.summary).toContain('<strong>e-money tokens</strong>');
    expect(items[1]!.image).toBe('https://img.chainwire-daily.example/mica-guidance.jpg');
    expect(items[4]).toMatchObject({ id: 'sponsor-2026-11-18', url: undefined });
  });

  it('reads Atom: alternate links, html, xhtml and text content, published or updated dates', () => {
    const feed = parseFeed(fixture('protocol-review.xml'), 'application/atom+xml');
    expect(feed.title).toBe('The Protocol Review');
    expect(feed.items).toHaveLength(6);
    const [intents, , , blobs, arbitrum] = feed.items;
    expect(intents).toMatchObject({
      url: 'https://protocolreview.example/2026/11/intent-bridges-fallback',
      title: 'Why intent-based bridges still need a fallback',
      image: 'https://media.protocolreview.example/intent-bridges.jpg',
      publishedAt: '2026-11-21T08:00:00Z',
      author: 'Hana Kowalczyk',
    });
    expect(intents!.contentHtml).toContain('<p>Solvers now fill most cross-chain orders');
    expect(blobs!.contentHtml).toMatch(/^<p>Blob fees follow .*<\/p><p>For rollups this means/);
    expect(blobs!.publishedAt).toBe('2026-11-16T12:00:00Z');
    expect(arbitrum!.contentHtml).toBeUndefined();
    expect(arbitrum!.summary).toContain('1.2 million ARB');
  });

  it('reads JSON Feed 1.1: html or text content, summaries, images and authors', () => {
    const feed = parseFeed(fixture('validator-weekly.json'), 'application/feed+json');
    expect(feed.title).toBe('Validator Weekly');
    expect(feed.items).toHaveLength(6);
    const [lumen, exits, , , , dvt] = feed.items;
    expect(lumen).toMatchObject({
      url: 'https://validatorweekly.example/news/lumen-labs-series-a',
      image: 'https://validatorweekly.example/media/lumen-labs.jpg',
      publishedAt: '2026-11-20T09:45:00Z',
      author: 'Newsroom',
    });
    expect(exits!.contentHtml).toMatch(/^<p>About 410,000 ETH .*<\/p><p>For home stakers/);
    expect(dvt).toMatchObject({
      url: 'https://validatorweekly.example/news/dvt-clusters-mainnet',
      image: 'https://validatorweekly.example/media/dvt-banner.jpg',
    });
  });

  it('reads what a podcast episode or a video is and how long it plays', () => {
    const rss = parseFeed(`<?xml version="1.0"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
        xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Casts</title>
        <item><title>Episode</title><link>https://casts.example/1</link>
          <enclosure url="https://casts.example/1.mp3" length="123456" type="audio/mpeg"/>
          <itunes:duration>0:42:10</itunes:duration></item>
        <item><title>Minutes and seconds</title><link>https://casts.example/2</link>
          <itunes:duration>35:00</itunes:duration></item>
        <item><title>Talk</title><link>https://casts.example/3</link>
          <media:content url="https://casts.example/3.mp4" medium="video" duration="2100"/></item>
        <item><title>Video of unknown length</title><link>https://casts.example/4</link>
          <media:group><media:content url="https://casts.example/4.webm" type="video/webm"/></media:group></item>
        <item><title>Text with a picture</title><link>https://casts.example/5</link>
          <enclosure url="https://casts.example/5.jpg" type="image/jpeg"/>
          <itunes:duration>soon</itunes:duration></item>
      </channel></rss>`);
    expect(rss.items.map((item) => item.media)).toEqual([
      { kind: 'audio', seconds: 2530 },
      { kind: 'audio', seconds: 2100 },
      { kind: 'video', seconds: 2100 },
      { kind: 'video' },
      undefined,
    ]);
    expect(rss.items[4]).not.toHaveProperty('media');

    const atom = parseFeed(`<?xml version="1.0"?>
      <feed xmlns="http://www.w3.org/2005/Atom"><title>Talks</title>
        <entry><title>Live build</title><id>t1</id><updated>2026-11-20T00:00:00Z</updated>
          <link href="https://talks.example/1"/>
          <link rel="enclosure" type="video/mp4" href="https://talks.example/1.mp4"/></entry>
      </feed>`);
    expect(atom.items[0]!.media).toEqual({ kind: 'video' });

    const json = parseFeed(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        items: [
          {
            id: '1',
            url: 'https://casts.example/j1',
            title: 'JSON episode',
            attachments: [
              {
                url: 'https://casts.example/j1.m4a',
                mime_type: 'audio/mp4',
                duration_in_seconds: 1800,
              },
            ],
          },
        ],
      }),
    );
    expect(json.items[0]!.media).toEqual({ kind: 'audio', seconds: 1800 });
  });

  it('reads RSS 1.0 and decodes numeric character references', () => {
    const feed = parseFeed(`<?xml version="1.0"?>
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
        xmlns:dc="http://purl.org/dc/elements/1.1/">
        <channel rdf:about="https://old.example/"><title>Old &#038; Gold</title></channel>
        <item rdf:about="https://old.example/a"><title>Vitalik&#8217;s roadmap, revisited</title>
          <link>https://old.example/a</link><dc:date>2026-11-02T10:00:00Z</dc:date></item>
      </rdf:RDF>`);
    expect(feed).toEqual({
      title: 'Old & Gold',
      items: [
        expect.objectContaining({
          url: 'https://old.example/a',
          title: 'Vitalik’s roadmap, revisited',
          publishedAt: '2026-11-02T10:00:00Z',
        }),
      ],
    });
  });

  it('refuses malformed XML with the line of the fault', () => {
    expect(() => parseFeed(fixture('malformed.xml'))).toThrowError(
      expect.objectContaining({
        name: 'FeedError',
        code: 'feed.malformed',
        message: expect.stringMatching(/^Feed is not well-formed XML \(line \d+, column \d+\)/),
      }),
    );
  });

  it('refuses web pages, JSON that is not a JSON Feed, broken JSON and empty bodies', () => {
    const codeOf = (body: string, type?: string) => {
      try {
        parseFeed(body, type);
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return 'parsed';
    };
    expect(codeOf('<!DOCTYPE html><html><body>Hi</body></html>', 'text/html')).toBe(
      'feed.unsupported',
    );
    expect(codeOf('{"items": []}')).toBe('feed.unsupported');
    expect(codeOf('{"version": "https://jsonfeed.org/version/1.1", "items": [')).toBe(
      'feed.malformed',
    );
    expect(codeOf('<opml version="2.0"><body/></opml>')).toBe('feed.unsupported');
    expect(codeOf('  ')).toBe('feed.malformed');
  });
});

describe('canonicalUrl', () => {
  it.each([
    [
      'HTTPS://Blocknotes.EXAMPLE:443/2026/a/?utm_source=x&b=2&a=1&fbclid=z#top',
      'https://blocknotes.example/2026/a?a=1&b=2',
    ],
    ['http://x.example:80/', 'http://x.example/'],
    ['https://x.example', 'https://x.example/'],
    [
      'https://x.example/p?id=5&gclid=1&mc_cid=2&mc_eid=3&UTM_Medium=4&ref=home',
      'https://x.example/p?id=5',
    ],
    ['https://x.example:8443/p//', 'https://x.example:8443/p'],
  ])('canonicalises %s', (url, expected) => {
    expect(canonicalUrl(url)).toBe(expected);
  });

  it('resolves relative URLs against a base and refuses what is not http(s)', () => {
    expect(canonicalUrl('../p?ref=rss', 'https://x.example/feed/rss')).toBe('https://x.example/p');
    expect(canonicalUrl('ftp://x.example/file')).toBeUndefined();
    expect(canonicalUrl('javascript:alert(1)')).toBeUndefined();
    expect(canonicalUrl('not a url')).toBeUndefined();
    expect(canonicalUrl(`https://x.example/${'a'.repeat(2_100)}`)).toBeUndefined();
  });
});

describe('normaliseItem', () => {
  const item = (overrides: Partial<FeedItem>): FeedItem => ({
    url: 'https://site.example/story?utm_source=rss',
    title: '  A   story \n title ',
    ...overrides,
  });

  it('gives a canonical URL, a clean title and the source, and skips items without URL or title', () => {
    expect(normaliseItem(item({}), source)).toMatchObject({
      canonicalUrl: 'https://site.example/story',
      title: 'A story title',
      summary: '',
      content: '',
      source: 'Blocknotes',
      streamId: 's1',
    });
    expect(
      normaliseItem(item({ url: undefined, id: 'https://site.example/from-guid' }), source),
    ).toMatchObject({ canonicalUrl: 'https://site.example/from-guid' });
    expect(normaliseItem(item({ url: undefined, id: 'urn:uuid:1' }), source)).toBeUndefined();
    expect(normaliseItem(item({ url: 'mailto:a@b.example' }), source)).toBeUndefined();
    expect(normaliseItem(item({ title: ' ' }), source)).toBeUndefined();
    expect(normaliseItem(item({ url: '/relative' }), source)?.canonicalUrl).toBe(
      'https://site.example/relative',
    );
  });

  it('keeps what a video or episode is and how long it plays; text has neither', () => {
    expect(normaliseItem(item({ media: { kind: 'video', seconds: 2100 } }), source)).toMatchObject({
      mediaType: 'video',
      durationSeconds: 2100,
    });
    expect(normaliseItem(item({ media: { kind: 'audio' } }), source)).toMatchObject({
      mediaType: 'audio',
    });
    const text = normaliseItem(item({}), source)!;
    expect(text).not.toHaveProperty('mediaType');
    expect(text).not.toHaveProperty('durationSeconds');
  });

  it('trims the summary to 400 characters at a word boundary with an ellipsis', () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const { summary } = normaliseItem(item({ summary: `<p>${words}</p>` }), source)!;
    expect(summary.length).toBeLessThanOrEqual(400);
    expect(summary.endsWith('…')).toBe(true);
    const kept = summary.slice(0, -1);
    expect(words.startsWith(kept)).toBe(true);
    expect(words.charAt(kept.length)).toBe(' ');
    expect(normaliseItem(item({ summary: 'Short &amp; sweet.' }), source)!.summary).toBe(
      'Short & sweet.',
    );
  });

  it('takes the summary from the content when there is none, as plain text', () => {
    const article = normaliseItem(
      item({ contentHtml: '<h2>Heading</h2><p>First&nbsp;paragraph.</p><p>Second.</p>' }),
      source,
    )!;
    expect(article.summary).toBe('Heading First paragraph. Second.');
  });

  it('sanitizes content: no scripts, event handlers, javascript: links or insecure images', () => {
    const { content } = normaliseItem(
      item({
        contentHtml: `<p onclick="steal()">Hello <a href="javascript:alert(1)">bad</a>
          <a href="/more">more</a></p><script>alert(1)</script>
          <img src="https://cdn.example/a.png" onerror="alert(1)">
          <img src="http://cdn.example/insecure.png"><iframe src="https://evil.example"></iframe>
          <h1>Big</h1><style>p { color: red }</style>`,
      }),
      source,
    )!;
    expect(content).not.toMatch(/script|onclick|onerror|javascript:|insecure|iframe|style|h1/i);
    expect(content).toContain(
      '<a href="https://site.example/more" rel="nofollow noopener noreferrer">more</a>',
    );
    expect(content).toContain('<img src="https://cdn.example/a.png" loading="lazy" />');
    expect(content).toContain('<h2>Big</h2>');
  });

  it('makes the image absolute, falling back to the first image of the content', () => {
    expect(normaliseItem(item({ image: '/img/cover.jpg' }), source)!.image).toBe(
      'https://site.example/img/cover.jpg',
    );
    expect(
      normaliseItem(
        item({ contentHtml: '<p><img src="https://cdn.example/x.png?w=1&amp;h=2"></p>' }),
        source,
      )!.image,
    ).toBe('https://cdn.example/x.png?w=1&h=2');
    expect(
      normaliseItem(item({ image: 'data:image/png;base64,AAAA' }), source)!.image,
    ).toBeUndefined();
  });

  it('dates items in ISO, forgets invalid dates and brings dates from the future back to now', () => {
    const at = (publishedAt: string) => normaliseItem(item({ publishedAt }), source)!.publishedAt;
    expect(at('Sat, 21 Nov 2026 14:05:00 +0100')).toBe('2026-11-21T13:05:00.000Z');
    expect(at('yesterday-ish')).toBeUndefined();
    const before = Date.now();
    const future = Date.parse(at(new Date(before + 3 * 86_400_000).toISOString())!);
    expect(future).toBeGreaterThanOrEqual(before);
    expect(future).toBeLessThanOrEqual(Date.now());
    const soon = new Date(before + 3_600_000).toISOString();
    expect(at(soon)).toBe(soon);
  });
});

describe('fingerprint', () => {
  const base = {
    canonicalUrl: 'https://a.example/story',
    title: 'Lumen Labs raises $24M',
    summary: '',
    content: '<p>Lumen Labs, a Berlin-based startup, raised money.</p>',
  };

  it('ignores case, punctuation, spacing, markup and the URL when there is text', () => {
    const twin = {
      canonicalUrl: 'https://b.example/other',
      title: 'LUMEN LABS RAISES $24M!',
      summary: '',
      content: '<div><strong>Lumen Labs</strong> a Berlin-based   startup raised money</div>',
    };
    expect(fingerprint(twin)).toBe(fingerprint(base));
    expect(fingerprint(base)).toMatch(/^[\da-f]{64}$/);
    expect(fingerprint({ ...base, content: '<p>Another story entirely.</p>' })).not.toBe(
      fingerprint(base),
    );
  });

  it('keeps apart words that punctuation separated', () => {
    expect(fingerprint({ ...base, title: 'Report 1-11' })).not.toBe(
      fingerprint({ ...base, title: 'Report 11-1' }),
    );
  });

  it('only looks at the first 500 characters of text', () => {
    const long = 'word '.repeat(200);
    expect(fingerprint({ ...base, content: `${long} tail one` })).toBe(
      fingerprint({ ...base, content: `${long} tail two` }),
    );
  });

  it('tells apart two posts with the same title and no text', () => {
    const empty = { ...base, title: 'Weekly roundup', content: '' };
    expect(fingerprint(empty)).not.toBe(
      fingerprint({ ...empty, canonicalUrl: 'https://a.example/next-week' }),
    );
  });

  it('recognises the same press release in the Atom and JSON fixtures', () => {
    const lumen = (file: string) => {
      const found = parseFeed(fixture(file)).items.find((i) => i.title?.startsWith('Lumen Labs'));
      return normaliseItem(found!, source)!;
    };
    const [atom, json] = [lumen('protocol-review.xml'), lumen('validator-weekly.json')];
    expect(atom.canonicalUrl).not.toBe(json.canonicalUrl);
    expect(fingerprint(atom)).toBe(fingerprint(json));
  });
});

describe('fetchFeed', () => {
  let server: FeedServer;
  const requests: Record<string, string | undefined>[] = [];

  beforeAll(async () => {
    server = await startFeedServer({
      routes: {
        '/headers': (req, res) => {
          requests.push({
            userAgent: req.headers['user-agent'],
            ifNoneMatch: req.headers['if-none-match'],
            ifModifiedSince: req.headers['if-modified-since'],
          });
          res.writeHead(304).end();
        },
        '/to-file': (_req, res) =>
          void res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
        '/latin1': (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'application/rss+xml; charset=iso-8859-1' })
            .end(
              Buffer.from(
                '<rss version="2.0"><channel><title>Café</title></channel></rss>',
                'latin1',
              ),
            ),
      },
    });
  });
  afterAll(() => server.stop());

  it('returns the body with its validators, then answers 304 to either validator', async () => {
    const first = await fetchFeed(server.url('/blocknotes.xml'));
    if (first.kind !== 'ok') throw new Error('expected a body');
    expect(first.etag).toMatch(/^"[\da-f]+"$/);
    expect(first.lastModified).toMatch(/GMT$/);
    expect(first.contentType).toBe('application/rss+xml; charset=utf-8');
    expect(first.finalUrl).toBe(server.url('/blocknotes.xml'));
    expect(parseFeed(first.body).items).toHaveLength(8);
    expect(await fetchFeed(server.url('/blocknotes.xml'), { etag: first.etag })).toEqual({
      kind: 'not-modified',
    });
    expect(
      await fetchFeed(server.url('/blocknotes.xml'), { lastModified: first.lastModified }),
    ).toEqual({ kind: 'not-modified' });
  });

  it('sends the validators it is given and identifies itself', async () => {
    await fetchFeed(server.url('/headers'), {
      etag: '"abc"',
      lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT',
    });
    expect(requests.at(-1)).toEqual({
      userAgent: 'CluefeedBot/1.0 (+https://cluefeed.xyz)',
      ifNoneMatch: '"abc"',
      ifModifiedSince: 'Sat, 21 Nov 2026 10:00:00 GMT',
    });
  });

  it('times out when the headers or the body do not arrive in time', async () => {
    for (const path of ['/slow', '/slow-body']) {
      await expect(fetchFeed(server.url(path), { timeoutMs: 300 })).rejects.toMatchObject({
        name: 'FeedError',
        code: 'feed.timeout',
        message: 'Feed did not answer within 0.3 s',
      });
    }
  });

  it('refuses a body past the size cap, streamed or declared', async () => {
    await expect(fetchFeed(server.url('/huge'))).rejects.toMatchObject({
      code: 'feed.too_large',
      message: 'Feed is larger than 5 MB',
    });
    await expect(
      fetchFeed(server.url('/blocknotes.xml'), { maxBytes: 1_000 }),
    ).rejects.toMatchObject({ code: 'feed.too_large' });
  });

  it('follows redirects, and refuses loops, too many hops and non-http targets', async () => {
    const redirected = await fetchFeed(server.url('/redirect/validator-weekly.json'));
    expect(redirected).toMatchObject({
      kind: 'ok',
      finalUrl: server.url('/validator-weekly.json'),
    });
    await expect(fetchFeed(server.url('/loop'))).rejects.toMatchObject({
      code: 'feed.too_many_redirects',
      message: `Feed redirects in a loop (${server.url('/loop')})`,
    });
    await expect(
      fetchFeed(server.url('/redirect/blocknotes.xml'), { maxRedirects: 0 }),
    ).rejects.toMatchObject({
      code: 'feed.too_many_redirects',
      message: 'Feed redirected more than 0 times',
    });
    await expect(fetchFeed(server.url('/to-file'))).rejects.toMatchObject({
      code: 'feed.unsupported',
    });
  });

  it('fails with the HTTP status, an unreachable host or an unsupported URL', async () => {
    await expect(fetchFeed(server.url('/status/500'))).rejects.toMatchObject({
      code: 'feed.http_status',
      message: 'Feed answered HTTP 500',
    });
    await expect(fetchFeed(server.url('/missing.xml'))).rejects.toMatchObject({
      message: 'Feed answered HTTP 404',
    });
    await expect(fetchFeed(`http://127.0.0.1:${await freePort()}/feed`)).rejects.toMatchObject({
      code: 'feed.unreachable',
      message: expect.stringMatching(/^Could not reach the feed: .*ECONNREFUSED/),
    });
    await expect(fetchFeed('ftp://files.example/feed.xml')).rejects.toMatchObject({
      code: 'feed.unsupported',
      message: 'The feed URL must use http or https, not ftp',
    });
  });

  it('fetches malformed XML fine and fails it when parsing', async () => {
    const fetched = await fetchFeed(server.url('/malformed.xml'));
    if (fetched.kind !== 'ok') throw new Error('expected a body');
    expect(() => parseFeed(fetched.body, fetched.contentType)).toThrowError(
      expect.objectContaining({ code: 'feed.malformed' }),
    );
  });

  it('decodes the charset the server declares', async () => {
    const fetched = await fetchFeed(server.url('/latin1'));
    if (fetched.kind !== 'ok') throw new Error('expected a body');
    expect(parseFeed(fetched.body).title).toBe('Café');
  });
});

describe('fetchFeed refuses private addresses (SSRF)', () => {
  let server: FeedServer;
  const port = () => new URL(server.origin).port;

  beforeAll(async () => {
    server = await startFeedServer({
      routes: {
        '/to-metadata': (_req, res) =>
          void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
        '/to-private': (_req, res) =>
          void res.writeHead(301, { location: 'http://10.20.30.40/feed.xml' }).end(),
        '/to-port': (req, res) => {
          const port = new URL(req.url ?? '/', 'http://localhost').searchParams.get('port');
          res.writeHead(302, { location: `http://127.0.0.1:${port}/blocknotes.xml` }).end();
        },
      },
    });
  });
  afterAll(() => server.stop());
  afterEach(() => vi.restoreAllMocks());

  const refused = (host: string) => ({
    name: 'FeedError',
    code: 'feed.refused',
    message: `Refused: ${host} resolves to a private address`,
  });

  it('refuses every private address class before connecting, without an allow-list', async () => {
    const hosts = {
      loopback: ['127.0.0.1', '127.255.0.9', '::1'],
      unspecified: ['0.0.0.0', '::'],
      'RFC 1918': ['10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.1.1'],
      CGNAT: ['100.64.0.1', '100.127.255.254'],
      'link-local and metadata': ['169.254.169.254', '169.254.1.1', 'fe80::1', 'fd00:ec2::254'],
      'unique-local': ['fc00::1', 'fdab::1'],
      multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1'],
      'IPv4-mapped IPv6': ['::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:a00:1'],
    };
    for (const address of Object.values(hosts).flat()) {
      const host = address.includes(':') ? `[${address}]` : address;
      const expected = new URL(`http://${host}/`).hostname.replace(/^\[(.*)\]$/, '$1');
      await expect(fetchFeed(`http://${host}/feed.xml`, { allow: [] })).rejects.toMatchObject(
        refused(expected),
      );
    }
  });

  it('tells private from public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '100.128.0.1']) {
      expect(isPrivateAddress(address)).toBe(false);
    }
    for (const address of ['172.32.0.1', '11.0.0.1', '192.169.0.1']) {
      expect(isPrivateAddress(address)).toBe(false);
    }
    expect(isPrivateAddress('::ffff:7f00:1')).toBe(true);
    expect(isPrivateAddress('64:ff9b::a9fe:a9fe')).toBe(true);
  });

  it('refuses a DNS name that resolves to 127.0.0.1', async () => {
    await expect(
      fetchFeed(`http://localhost:${port()}/blocknotes.xml`, { allow: [] }),
    ).rejects.toMatchObject(refused('localhost'));
    expect(server.hits('/blocknotes.xml')).toBe(0);
  });

  it('refuses a name when any of its addresses is private', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ] as never);
    await expect(fetchFeed('http://mixed.example/feed.xml', { allow: [] })).rejects.toMatchObject(
      refused('mixed.example'),
    );
  });

  it('checks every redirect hop, refusing one into a private address', async () => {
    const allow = ['127.0.0.1'];
    await expect(fetchFeed(server.url('/to-metadata'), { allow })).rejects.toMatchObject(
      refused('169.254.169.254'),
    );
    await expect(fetchFeed(server.url('/to-private'), { allow })).rejects.toMatchObject(
      refused('10.20.30.40'),
    );
    expect(server.hits('/to-metadata')).toBe(1);
  });

  it('fetches from addresses, ranges and host names the allow-list names', async () => {
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8'], ['::ffff:127.0.0.1']]) {
      await expect(fetchFeed(server.url('/blocknotes.xml'), { allow })).resolves.toMatchObject({
        kind: 'ok',
      });
    }
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '127.0.0.1', family: 4 },
    ] as never);
    await expect(
      fetchFeed(`http://feeds.internal:${port()}/blocknotes.xml`, { allow: ['feeds.internal'] }),
    ).resolves.toMatchObject({ kind: 'ok' });
    await expect(
      fetchFeed(`http://other.internal:${port()}/blocknotes.xml`, { allow: ['feeds.internal'] }),
    ).rejects.toMatchObject(refused('other.internal'));
  });

  it('allows a host:port origin on that port only, refusing open and closed ports alike', async () => {
    const allow = [new URL(server.origin).host];
    await expect(fetchFeed(server.url('/blocknotes.xml'), { allow })).resolves.toMatchObject({
      kind: 'ok',
    });
    // Another loopback port, as DynamoDB Local's beside the fixture feeds: one listening, one not.
    const open = await startFeedServer();
    const closed = await freePort();
    try {
      const answers: unknown[] = [];
      for (const target of [new URL(open.origin).port, String(closed)]) {
        const redirected = fetchFeed(server.url(`/to-port?port=${target}`), { allow });
        answers.push(await redirected.catch((error: unknown) => error));
        const direct = fetchFeed(`http://127.0.0.1:${target}/blocknotes.xml`, { allow });
        answers.push(await direct.catch((error: unknown) => error));
      }
      for (const answer of answers) expect(answer).toMatchObject(refused('127.0.0.1'));
      expect(open.hits('/blocknotes.xml')).toBe(0);
    } finally {
      await open.stop();
    }
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '127.0.0.1', family: 4 },
    ] as never);
    const named = [`feeds.internal:${port()}`];
    await expect(
      fetchFeed(`http://feeds.internal:${port()}/blocknotes.xml`, { allow: named }),
    ).resolves.toMatchObject({ kind: 'ok' });
    await expect(
      fetchFeed(`http://feeds.internal:${closed}/blocknotes.xml`, { allow: named }),
    ).rejects.toMatchObject(refused('feeds.internal'));
    // A URL without a port is on its scheme's, which no other port's entry allows.
    await expect(
      fetchFeed('http://feeds.internal/feed.xml', { allow: ['feeds.internal:443'] }),
    ).rejects.toMatchObject(refused('feeds.internal'));
    await expect(
      fetchFeed('https://feeds.internal/feed.xml', { allow: ['feeds.internal:80'] }),
    ).rejects.toMatchObject(refused('feeds.internal'));
  });

  it('connects to the address it checked, so a second DNS answer cannot swap it', async () => {
    const lookup = vi
      .spyOn(dns.promises, 'lookup')
      .mockResolvedValueOnce([{ address: '127.0.0.1', family: 4 }] as never)
      .mockResolvedValue([{ address: '169.254.169.254', family: 4 }] as never);
    const fetched = await fetchFeed(`http://rebind.example:${port()}/validator-weekly.json`, {
      allow: ['127.0.0.1'],
    });
    expect(fetched).toMatchObject({ kind: 'ok' });
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('reads FEED_FETCH_ALLOW when no allow-list is given', async () => {
    await expect(fetchFeed(server.url('/blocknotes.xml'))).resolves.toMatchObject({ kind: 'ok' });
  });
});
