// A list written before its entries had places (ADR 0066) is not readable by them: the first read
// asks for a build and says the list is being updated; once built, it reads whole.
import { describe, expect, it } from 'vitest';
import * as Feed from '#core/feed';
import * as Jobs from '#core/jobs';
import * as Users from '#core/users';
import { receive } from '#tests/integration/job-queue';
import { readerWithFeed } from '#tests/integration/readers';

describe('a list built before its entries had places', () => {
  it('is built anew when it is read, and the read says it is being updated', async () => {
    const { user } = await readerWithFeed(['Very Relevant', 'Quite Relevant']);
    // What such a build left on the reader's record: its build and counts, no marks.
    await Users.UserEntity.patch({ id: user.id }).remove(['feedMarks']).go();
    const old = (await Users.byId(user.id))!;
    const { list: _list, ...read } = await Feed.page(old, { limit: 20 });
    expect(read).toEqual({ stories: [], count: 2, rebuilding: true });
    const build = (await Jobs.lastRun(Feed.buildFeedJob.name))!;
    expect(JSON.parse(build.input)).toEqual({ userId: user.id });
    await Jobs.handleBatch(await receive(build.id), Jobs.registry([Feed.buildFeedJob]));
    const rebuilt = (await Users.byId(user.id))!;
    expect(rebuilt.feedMarks).toEqual([]);
    const page = await Feed.page(rebuilt, { limit: 20 });
    expect(page.rebuilding).toBeUndefined();
    expect(page.stories).toHaveLength(2);
  });
});
