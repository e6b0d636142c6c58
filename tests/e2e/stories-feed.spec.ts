// Stories in the reader's feed, end to end on the running product (worker, local AI provider): an
// event two fixture feeds carry (the Base outage, in Blocknotes and Chainwire Daily) shows once,
// led by the reader's best-scored report, with the other source's link; when two more sources join
// the story it moves up once and says so; a dislike of its entry takes the whole story out at once
// and, rebuilt, out of the reader's ratings and API. The fixture items are normalised, stored and
// grouped through core, as an import does.
import { ulid } from 'ulid';
import type { Page } from '@playwright/test';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { readerWithPassword, retireReader, scoreFor } from '#tests/integration/readers';
import { baseOutage, bridgeHack, storeReports } from '#tests/integration/stories';
import { expect, hydrated, offlineImages, test } from './fixtures';
import { rebuilt, signInToFeed, storyCard as card, storyList as list } from './feed-page';
import { expectFitsAndReadable } from './page-checks';

const headings = (page: Page) => list(page).getByRole('heading', { level: 2 });

test.describe('stories in the feed', () => {
  test.setTimeout(150_000);

  test('an event two fixture feeds carry shows once with both sources; it moves up once when it grows; a dislike takes it out whole', async ({
    page,
  }) => {
    const reader = await readerWithPassword({ name: 'Story Reader' });
    // Stored as they are, so no scoring run is queued for the reader: their scores are these.
    await Users.UserEntity.patch({ id: reader.user.id })
      .set({ descriptors: [{ id: ulid(), clue: 'I follow DeFi security incidents' }] })
      .go();
    const user = (await Users.byId(reader.user.id))!;
    const { fixtures, later } = baseOutage();
    const [blocknotes, chainwire] = await storeReports(fixtures);
    // Another event that day, published after Blocknotes' report: read first until the story grows.
    const [elsewhere] = await storeReports([bridgeHack(Date.UTC(2026, 10, 19, 6)).other]);
    await scoreFor(user, blocknotes!, 'Very Relevant');
    await scoreFor(user, chainwire!, 'Quite Relevant');
    await scoreFor(user, elsewhere!, 'Very Relevant');
    await Feed.buildFeed(user.id);

    await offlineImages(page);
    await page.setViewportSize({ width: 1280, height: 844 });
    await signInToFeed(page, reader);
    await hydrated(page);

    // 1. Once, led by the best-scored report, with the other source as a link in a labelled list.
    await expect(headings(page)).toHaveText([elsewhere!.title, blocknotes!.title]);
    const story = card(page, blocknotes!.title);
    await expect(story).toContainText('also covered by 1 source');
    const sources = story.getByRole('list', { name: 'also covered by 1 source' });
    const link = sources.getByRole('link', { name: 'Chainwire Daily' });
    await expect(link).toHaveAttribute('href', chainwire!.canonicalUrl);
    await link.focus();
    await expect(link).toBeFocused();
    await expectFitsAndReadable(page, 'the feed with a story of two sources');

    // 2. Two more sources join the story: the next build moves it to the top of its rating once
    // and it says so; the build after that leaves it where its score puts it.
    await page.setViewportSize({ width: 1280, height: 844 });
    await storeReports(later);
    await Feed.buildFeed(user.id);
    await page.reload();
    await hydrated(page);
    await expect(headings(page)).toHaveText([blocknotes!.title, elsewhere!.title]);
    await expect(story).toContainText('also covered by 3 sources');
    await expect(story).toContainText('updated: 2 new sources');
    await expect(
      story.getByRole('list', { name: 'also covered by 3 sources' }).getByRole('link'),
    ).toHaveText(['Decrypt', 'The Block', 'Chainwire Daily']);
    await expectFitsAndReadable(page, 'the feed with a story that grew');
    await Feed.buildFeed(user.id);
    await page.reload();
    await hydrated(page);
    await expect(headings(page)).toHaveText([elsewhere!.title, blocknotes!.title]);

    // 3. At a phone's width, a dislike of the entry takes it out at once, with Undo; rebuilt, no
    // report of the story is in the reader's ratings, and the API has it once, as Not Relevant.
    await page.setViewportSize({ width: 390, height: 844 });
    await story.getByRole('button', { name: /^Dislike/ }).click();
    await expect(card(page, blocknotes!.title)).toHaveCount(0, { timeout: 5_000 });
    await expect(
      list(page).getByRole('button', { name: `Undo your dislike of “${blocknotes!.title}”` }),
    ).toBeVisible();
    await rebuilt(page, user.id);
    await expect(headings(page)).toHaveText([elsewhere!.title]);
    await expectFitsAndReadable(page, 'the feed with a story disliked');
    const answer = await page.request.get('/api/users/me/articles');
    const { rows } = (await answer.json()) as {
      rows: { Article: { id: string; rating: string; alsoCoveredBy: unknown[] } }[];
    };
    expect(
      rows.map(({ Article }) => [Article.id, Article.rating, Article.alsoCoveredBy.length]),
    ).toEqual([
      [elsewhere!.id, 'Very Relevant', 0],
      [blocknotes!.id, 'Not Relevant', 3],
    ]);
    await retireReader(user.id);
  });
});
