import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { config } from '#core/config';
import * as RateLimit from '#core/rate-limit';
import * as ReaderTokens from '#core/reader-tokens';
import * as Users from '#core/users';
import { rounds } from '#tests/integration/races';
import { readerWithPassword } from '#tests/integration/readers';

const HOUR = 3600 * 1000;
const { READER_TOKEN_MESSAGES: MESSAGES, MAX_TOKENS_PER_READER } = ReaderTokens;

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { message, status } = error as { message: string; status?: number };
    return { message, status };
  }
  throw new Error('expected a refusal');
}

const stored = async (userId: string) =>
  (await ReaderTokens.ReaderTokenEntity.query.bySlot({ userId }).go({ consistent: true })).data;

async function withTokens(count: number, now = Date.now()) {
  const { user } = await readerWithPassword();
  const tokens: string[] = [];
  for (let index = 0; index < count; index++) {
    tokens.push((await ReaderTokens.create(user.id, { name: `script ${index}` }, now)).token);
  }
  return { user, tokens };
}

describe("a reader's access tokens", () => {
  it('shows a new token once; the table keeps its SHA-256 only, and the token opens its reader', async () => {
    const { user } = await readerWithPassword();
    const { token, entry } = await ReaderTokens.create(user.id, { name: '  Morning digest  ' });
    expect(token).toMatch(/^cfr_[A-Za-z0-9_-]{43}$/);
    expect(entry).toMatchObject({
      name: 'Morning digest',
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
    });
    expect(await ReaderTokens.list(user.id)).toEqual([entry]);
    expect(JSON.stringify(await ReaderTokens.list(user.id))).not.toContain(token);

    const [item] = await stored(user.id);
    expect(item!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(item)).not.toContain(token.slice(4));
    const { data: key } = await ReaderTokens.ReaderTokenKeyEntity.get({
      tokenHash: item!.tokenHash,
    }).go();
    expect(JSON.stringify(key)).not.toContain(token.slice(4));

    const found = await ReaderTokens.readerOf(token);
    expect(found?.reader).toMatchObject({ id: user.id, email: user.email });
    expect(found?.reader).not.toHaveProperty('passwordHash');
    expect(found?.tokenId).toBe(entry.id);
  });

  it('expires a year after it was created', async () => {
    const now = Date.parse('2026-11-27T08:00:00.000Z');
    const { user, tokens } = await withTokens(1, now);
    const [entry] = await ReaderTokens.list(user.id, now);
    expect(entry!.expiresAt).toBe('2027-11-27T08:00:00.000Z');
    const lastDay = now + ReaderTokens.TOKEN_TTL_SECONDS * 1000 - HOUR;
    expect(await ReaderTokens.readerOf(tokens[0]!, lastDay)).toBeDefined();
    const afterwards = now + ReaderTokens.TOKEN_TTL_SECONDS * 1000;
    expect(await ReaderTokens.readerOf(tokens[0]!, afterwards)).toBeUndefined();
    expect(await ReaderTokens.list(user.id, afterwards)).toEqual([]);
  });

  it('refuses a token without a name or with a name over 60 characters', async () => {
    const { user } = await readerWithPassword();
    for (const name of ['', '   ', undefined]) {
      expect(await refusal(ReaderTokens.create(user.id, { name } as { name: string }))).toEqual({
        message: MESSAGES.nameRequired,
        status: 400,
      });
    }
    expect(await refusal(ReaderTokens.create(user.id, { name: 'x'.repeat(61) }))).toEqual({
      message: MESSAGES.nameTooLong,
      status: 400,
    });
    await ReaderTokens.create(user.id, { name: 'x'.repeat(60) });
    expect(await ReaderTokens.list(user.id)).toHaveLength(1);
  });

  it('holds at most 5 live tokens; revoking one frees its place', async () => {
    const { user } = await withTokens(MAX_TOKENS_PER_READER);
    expect(await refusal(ReaderTokens.create(user.id, { name: 'sixth' }))).toEqual({
      message: MESSAGES.tooMany,
      status: 409,
    });
    const listed = await ReaderTokens.list(user.id);
    expect(listed.map((entry) => entry.name)).toEqual([0, 1, 2, 3, 4].map((n) => `script ${n}`));
    await ReaderTokens.revoke(user.id, listed[2]!.id);
    await ReaderTokens.create(user.id, { name: 'sixth' });
    expect((await ReaderTokens.list(user.id)).map((entry) => entry.name)).toContain('sixth');
  });

  it("gives an expired token's place to a new one and removes the expired token's key", async () => {
    const now = Date.now();
    const old = await withTokens(1, now - ReaderTokens.TOKEN_TTL_SECONDS * 1000 - HOUR);
    const [expired] = await stored(old.user.id);
    for (let index = 0; index < MAX_TOKENS_PER_READER; index++) {
      await ReaderTokens.create(old.user.id, { name: `live ${index}` }, now);
    }
    const slots = await stored(old.user.id);
    expect(slots.map((item) => [item.slot, item.name])).toEqual(
      [0, 1, 2, 3, 4].map((slot) => [slot, `live ${slot}`]),
    );
    const { data: key } = await ReaderTokens.ReaderTokenKeyEntity.get({
      tokenHash: expired!.tokenHash,
    }).go({ consistent: true });
    expect(key).toBeNull();
    expect(await refusal(ReaderTokens.create(old.user.id, { name: 'sixth' }, now))).toMatchObject({
      status: 409,
    });
  });

  it('creates at most 10 tokens an hour for a reader, counting no refused name', async () => {
    const { user } = await readerWithPassword();
    const limit = RateLimit.LIMITS.readerTokensPerReader;
    await ReaderTokens.create(user.id, { name: 'first' });
    expect(await refusal(ReaderTokens.create(user.id, { name: '' }))).toMatchObject({
      status: 400,
    });
    for (let count = 2; count < limit.max * config().RATE_LIMIT_FACTOR; count++) {
      await RateLimit.hit(limit, user.id);
    }
    await ReaderTokens.create(user.id, { name: 'tenth' });
    expect(await refusal(ReaderTokens.create(user.id, { name: 'eleventh' }))).toMatchObject({
      status: 429,
    });
    expect(await ReaderTokens.list(user.id)).toHaveLength(2);
  });

  it('lets only one of two creates at the same moment take the last place', async () => {
    await rounds(4, async (race) => {
      const { user } = await withTokens(MAX_TOKENS_PER_READER - 1);
      const outcomes = await race(
        () => ReaderTokens.create(user.id, { name: 'left' }).then(() => 'created', refusalOf),
        () => ReaderTokens.create(user.id, { name: 'right' }).then(() => 'created', refusalOf),
      );
      expect(outcomes.sort()).toEqual([MESSAGES.tooMany, 'created'].sort());
      expect(await stored(user.id)).toHaveLength(MAX_TOKENS_PER_READER);
    });
  });

  it('lets both of two creates at the same moment in when two places are free', async () => {
    await rounds(3, async (race) => {
      const { user } = await withTokens(MAX_TOKENS_PER_READER - 2);
      await race(
        () => ReaderTokens.create(user.id, { name: 'left' }),
        () => ReaderTokens.create(user.id, { name: 'right' }),
      );
      const slots = await stored(user.id);
      expect(slots.map((item) => item.slot).sort()).toEqual([0, 1, 2, 3, 4]);
    });
  });
});

const refusalOf = (error: unknown) => (error as Error).message;

describe('revoking a token', () => {
  it('ends it at once; a second revoke finds nothing', async () => {
    const { user, tokens } = await withTokens(2);
    const [first, second] = await ReaderTokens.list(user.id);
    await ReaderTokens.revoke(user.id, first!.id);
    expect(await ReaderTokens.readerOf(tokens[0]!)).toBeUndefined();
    expect(await ReaderTokens.readerOf(tokens[1]!)).toBeDefined();
    expect((await ReaderTokens.list(user.id)).map((entry) => entry.id)).toEqual([second!.id]);
    expect(await refusal(ReaderTokens.revoke(user.id, first!.id))).toEqual({
      message: MESSAGES.notFound,
      status: 404,
    });
  });

  it("answers another reader's token id as a missing one, and leaves that token working", async () => {
    const a = await withTokens(1);
    const b = await withTokens(1);
    const [bToken] = await ReaderTokens.list(b.user.id);
    for (const id of [bToken!.id, 'not-an-id', '']) {
      expect(await refusal(ReaderTokens.revoke(a.user.id, id))).toEqual({
        message: MESSAGES.notFound,
        status: 404,
      });
    }
    expect((await ReaderTokens.readerOf(b.tokens[0]!))?.reader.id).toBe(b.user.id);
    expect((await ReaderTokens.list(b.user.id)).map((entry) => entry.id)).toEqual([bToken!.id]);
  });
});

describe('who a token opens', () => {
  it('nobody for a malformed, unknown or altered token', async () => {
    const { tokens } = await withTokens(1);
    const token = tokens[0]!;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['', 'cfr_', token.slice(4), `${token}x`, altered, ` ${token}`]) {
      expect(await ReaderTokens.readerOf(bad), bad).toBeUndefined();
    }
  });

  it('nobody once the reader is deactivated; the token works again when reactivated', async () => {
    const { user, tokens } = await withTokens(1);
    await Users.update(user.id, { isActive: false });
    expect(await ReaderTokens.readerOf(tokens[0]!)).toBeUndefined();
    expect(await refusal(ReaderTokens.create(user.id, { name: 'more' }))).toEqual({
      message: MESSAGES.readerGone,
      status: 403,
    });
    await Users.update(user.id, { isActive: true });
    expect((await ReaderTokens.readerOf(tokens[0]!))?.reader.id).toBe(user.id);
  });

  it('nobody once the reader is deleted', async () => {
    const { user, tokens } = await withTokens(1);
    await Users.UserEntity.delete({ id: user.id }).go();
    expect(await ReaderTokens.readerOf(tokens[0]!)).toBeUndefined();
    expect(await refusal(ReaderTokens.create(user.id, { name: 'more' }))).toMatchObject({
      status: 403,
    });
  });

  it('records when it was last used, at most once an hour', async () => {
    const now = Date.now();
    const { user, tokens } = await withTokens(1, now);
    const used = async (at: number) => {
      expect(await ReaderTokens.readerOf(tokens[0]!, at)).toBeDefined();
      return (await ReaderTokens.list(user.id, at))[0]!.lastUsedAt;
    };
    expect((await ReaderTokens.list(user.id, now))[0]!.lastUsedAt).toBeUndefined();
    const first = new Date(now + 1000).toISOString();
    expect(await used(now + 1000)).toBe(first);
    expect(await used(now + 30 * 60 * 1000)).toBe(first);
    expect(await used(now + 1000 + HOUR)).toBe(new Date(now + 1000 + HOUR).toISOString());
  });

  it('answers two uses at the same moment, of which one records the use', async () => {
    await rounds(3, async (race) => {
      const { user, tokens } = await withTokens(1);
      const at = Date.now();
      const found = await race(
        () => ReaderTokens.readerOf(tokens[0]!, at),
        () => ReaderTokens.readerOf(tokens[0]!, at + 1),
      );
      expect(found.map((one) => one?.reader.id)).toEqual([user.id, user.id]);
      const lastUsedAt = (await ReaderTokens.list(user.id))[0]!.lastUsedAt;
      expect([new Date(at).toISOString(), new Date(at + 1).toISOString()]).toContain(lastUsedAt);
    });
  });

  it('nothing for a revoked token whose use raced its revoke: the use does not bring it back', async () => {
    const { user, tokens } = await withTokens(1);
    const [entry] = await ReaderTokens.list(user.id);
    await Promise.all([ReaderTokens.readerOf(tokens[0]!), ReaderTokens.revoke(user.id, entry!.id)]);
    expect(await stored(user.id)).toEqual([]);
    expect(await ReaderTokens.readerOf(tokens[0]!)).toBeUndefined();
  });
});
