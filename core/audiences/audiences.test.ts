import { describe, expect, it } from 'vitest';
import { createAudience, uniqueSlug } from '#tests/integration/factories';
import * as Audiences from '#core/audiences';
import { AudienceEntity } from './entity';

describe('audiences', () => {
  it('finds a created audience by its slug', async () => {
    const audience = await createAudience();
    const found = await Audiences.bySlug(audience.slug);
    expect(found).toEqual({
      kind: 'found',
      audience: expect.objectContaining({ id: audience.id, title: audience.title }),
    });
  });

  it('answers a past slug with the current one', async () => {
    const oldSlug = uniqueSlug('old');
    const audience = await createAudience({ pastSlugs: [oldSlug] });
    expect(await Audiences.bySlug(oldSlug)).toEqual({ kind: 'moved', slug: audience.slug });
  });

  it('reports an unknown slug as missing', async () => {
    expect(await Audiences.bySlug(uniqueSlug('nothing'))).toEqual({ kind: 'missing' });
  });

  it('refuses a slug that another audience already owns, current or past', async () => {
    const first = await createAudience({ pastSlugs: [uniqueSlug('past')] });
    await expect(createAudience({ slug: first.slug })).rejects.toMatchObject({
      code: 'audience.slug_taken',
      status: 409,
    });
    await expect(createAudience({ slug: first.pastSlugs![0] })).rejects.toMatchObject({
      code: 'audience.slug_taken',
    });
    expect(await Audiences.byId(first.id)).toMatchObject({ slug: first.slug });
  });

  it('rejects invalid input with a visible error', async () => {
    await expect(createAudience({ slug: 'Not A Slug' })).rejects.toMatchObject({
      code: 'input.invalid',
      status: 400,
    });
  });

  it('lists featured audiences only in the featured cloud', async () => {
    const featured = await createAudience({ featured: true });
    const hidden = await createAudience({ featured: false });
    const ids = (await Audiences.featured()).map((a) => a.id);
    expect(ids).toContain(featured.id);
    expect(ids).not.toContain(hidden.id);
  });

  it('keeps ids out of keys and keys out of ids', () => {
    const params = AudienceEntity.get({ id: '01ABC' }).params();
    expect(params.Key).toEqual({ pk: 'audience#01ABC', sk: 'audience' });
    const query = AudienceEntity.query.all({}).params();
    expect(query.ExpressionAttributeValues).toMatchObject({ ':pk': 'audiences' });
  });
});
