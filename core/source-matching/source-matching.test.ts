import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Articles from '#core/articles';
import { logger } from '#core/logs';
import * as SourceMatching from '#core/source-matching';
import * as Streams from '#core/streams';
import { createAudience } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('source-matching');

const context = () => ({ processId: ulid(), log: logger, progress: async () => {} });

/** A stream with its headlines (this file has a table of its own). */
async function streamWith(name: string, titles: string[]) {
  const stream = await Streams.create({
    name,
    url: `https://${ulid().toLowerCase()}.example/feed`,
  });
  for (const [index, title] of titles.entries()) {
    const canonicalUrl = `https://${ulid().toLowerCase()}.example/${index}`;
    await Articles.storeIfNew({
      canonicalUrl,
      title,
      summary: title,
      publishedAt: `2026-01-0${index + 1}T00:00:00.000Z`,
      source: name,
      streamId: stream.id,
      fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    });
  }
  return stream;
}

describe('source <> audience matching', () => {
  it('rates unmatched sources against active audiences from their headlines, then flags them', async () => {
    const defi = await createAudience({ title: 'build DeFi lending protocols' });
    const art = await createAudience({ title: 'collect generative art on-chain', tag: 'aud-art' });
    const lending = await streamWith('Lending Desk', [
      'DeFi lending protocols ship isolated markets',
      'Liquidation bots and lending protocol oracles',
      'How DeFi protocols price collateral',
    ]);
    const gallery = await streamWith('Gallery Notes', [
      'Generative art collectors return to on-chain long-form art',
      'A generative art drop sells out on-chain',
    ]);
    const empty = await Streams.create({
      name: 'Quiet Feed',
      url: `https://${ulid().toLowerCase()}.example/feed`,
    });

    const summary = await SourceMatching.populate(context());
    expect(summary.matches).toBeGreaterThanOrEqual(4);
    expect(summary.failed).toBe(0);

    const forDefi = await SourceMatching.forAudience(defi.id);
    const score = (matches: SourceMatching.SourceMatch[], streamId: string) =>
      matches.find((match) => match.streamId === streamId)!.score;
    expect(score(forDefi, lending.id)).toBeGreaterThan(score(forDefi, gallery.id));
    const forArt = await SourceMatching.forAudience(art.id);
    expect(score(forArt, gallery.id)).toBeGreaterThan(score(forArt, lending.id));
    expect(forDefi[0]).toMatchObject({ headlines: expect.any(Number), reason: expect.any(String) });

    expect((await Streams.byId(lending.id))?.firstScoring).toBe(true);
    // Nothing to judge it by: it stays unflagged until it has headlines.
    expect((await Streams.byId(empty.id))?.firstScoring).toBe(false);

    const again = await SourceMatching.populate(context());
    const stillUnmatched = (await Streams.list()).filter((stream) => !stream.firstScoring);
    expect(again.sources).toBe(0);
    expect(stillUnmatched.map((stream) => stream.id)).toContain(empty.id);
  });

  it('rates every source again for one chosen audience, replacing its earlier matches', async () => {
    const audience = await createAudience({ title: 'audit smart contracts' });
    const stream = await streamWith('Audit Log', ['Smart contract audits find reentrancy bugs']);
    await SourceMatching.matchAudience(audience.id, context());
    await SourceMatching.matchAudience(audience.id, context());
    const matches = await SourceMatching.forAudience(audience.id);
    expect(matches.filter((match) => match.streamId === stream.id)).toHaveLength(1);
  });

  it('answers the spec message for an audience that does not exist', async () => {
    await expect(SourceMatching.matchAudience(ulid(), context())).rejects.toThrow(
      'Audience matching error: Please select an audience',
    );
  });
});
