import { describe, expect, it } from 'vitest';
import { author, createAudience, createPost, uniqueSlug } from '#tests/integration/factories';
import * as Posts from '#core/posts';
import { PostEntity } from './entity';

describe('posts', () => {
  it('finds a post by slug and refuses a second post with the same slug', async () => {
    const audience = await createAudience();
    const post = await createPost(audience.id);
    expect(await Posts.bySlug(post.slug)).toMatchObject({ id: post.id, title: post.title });
    await expect(createPost(audience.id, { slug: post.slug })).rejects.toMatchObject({
      code: 'post.slug_taken',
    });
  });

  it('refuses a post with both a link and content', async () => {
    const audience = await createAudience();
    await expect(
      Posts.create({
        slug: uniqueSlug('both'),
        title: 'Both',
        date: '2026-11-20T08:00:00.000Z',
        teaser: 'x',
        minutes: 3,
        type: 'article',
        audienceId: audience.id,
        author,
        content: '# Hi',
        link: { url: 'https://example.org', domain: 'example.org' },
      }),
    ).rejects.toMatchObject({ code: 'input.invalid' });
  });

  it('returns posts by id in the order asked, skipping unknown ids', async () => {
    const audience = await createAudience();
    const a = await createPost(audience.id);
    const b = await createPost(audience.id);
    const found = await Posts.byIds([b.id, 'missing', a.id]);
    expect(found.map((p) => p.id)).toEqual([b.id, a.id]);
  });

  it("lists an audience's posts newest first", async () => {
    const audience = await createAudience();
    await createPost(audience.id, { date: '2026-10-01T00:00:00.000Z', title: 'Older' });
    await createPost(audience.id, { date: '2026-11-01T00:00:00.000Z', title: 'Newer' });
    expect((await Posts.byAudience(audience.id, 5)).map((p) => p.title)).toEqual([
      'Newer',
      'Older',
    ]);
  });

  it('builds keys from the id alone', () => {
    expect(PostEntity.get({ id: '01XYZ' }).params().Key).toEqual({ pk: 'post#01XYZ', sk: 'post' });
  });
});

describe('renderMarkdown', () => {
  it('renders Markdown and strips scripts, handlers and javascript: links', () => {
    const html = Posts.renderMarkdown(
      '## Title\n\n**bold** [ok](https://ok.org) [bad](javascript:alert(1))\n\n<script>alert(1)</script><img src=x onerror=alert(1)>',
    );
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('href="https://ok.org/"');
    expect(html).toContain('rel="nofollow noopener noreferrer"');
    expect(html).not.toMatch(/script|onerror|javascript:/);
  });

  it('refuses a link or comments link that is not http or https, with a clear message', async () => {
    const audience = await createAudience();
    for (const link of [
      { url: 'javascript:alert(document.cookie)', domain: 'evil.example' },
      { url: 'data:text/html,<script>alert(1)</script>', domain: 'evil.example' },
      { url: 'https://example.org/a', domain: 'example.org', comments: 'javascript:alert(1)' },
    ]) {
      await expect(
        Posts.create({
          slug: uniqueSlug('scheme'),
          title: 'Scheme',
          date: '2026-11-20T08:00:00.000Z',
          teaser: 'x',
          minutes: 3,
          type: 'article',
          audienceId: audience.id,
          author,
          link,
        }),
      ).rejects.toMatchObject({
        code: 'input.invalid',
        status: 400,
        message: 'A link must be a web address starting with http:// or https://',
      });
    }
    const ok = await createPost(audience.id, {
      link: { url: 'http://example.org/story', domain: 'example.org' },
    });
    expect(ok.link?.url).toBe('http://example.org/story');
  });
});
