import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { createArticle } from '#tests/integration/factories';
import { bridgeHack, storeReports } from '#tests/integration/stories';
import { config } from '#core/config';
import { loader } from './article';

async function load(id: string, cookie?: string) {
  const origin = new URL(config().PUBLIC_URL).origin;
  const request = new Request(`${origin}/admin-panel/articles/${id}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  try {
    return await loader({ request, params: { id }, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the admin's article page", () => {
  it("shows the article's story as production built it: headline, summary, span and the other sources", async () => {
    const { cookie } = await signedInAdmin();
    const event = bridgeHack();
    const [first, second, third] = await storeReports(event.reports.slice(0, 3));
    const page = (await load(second!.id, cookie)) as Exclude<
      Awaited<ReturnType<typeof load>>,
      Response
    >;
    expect(page.story.sourceCount).toBe(3);
    expect(page.story.headline).toMatch(event.name);
    expect(page.story.summary.length).toBeGreaterThan(0);
    expect(page.story.firstAt).toBe(first!.publishedAt);
    expect(page.story.latestAt).toBe(third!.publishedAt);
    // The other members, newest first, each to its own admin page; not the article itself.
    expect(page.story.others.map((other) => other.articleId)).toEqual([third!.id, first!.id]);
  });

  it('says an article alone is a story of one source', async () => {
    const { cookie } = await signedInAdmin();
    const article = await createArticle({ title: `A report no one else carries ${Date.now()}` });
    const page = (await load(article.id, cookie)) as Exclude<
      Awaited<ReturnType<typeof load>>,
      Response
    >;
    expect(page.story).toMatchObject({ sourceCount: 1, others: [] });
  });

  it('shows nothing to a visitor who is not signed in as an admin', async () => {
    const article = await createArticle();
    const answer = await load(article.id);
    expect(answer).toBeInstanceOf(Response);
    expect([302, 303, 401, 403]).toContain((answer as Response).status);
  });
});
