// Between the journeys and the curation journeys: every reader the journeys signed up is retired,
// as a reader who leaves is. The curation journey's 'Score unscored articles' then scores the
// seeded audiences and its own new one, not thousands of pairs for readers no journey reads again
// (about 7,000 pairs and half a minute of the worker, with both cores otherwise idle).
import { expect, test } from '@playwright/test';
import * as Users from '#core/users';
import { retireReader } from '#tests/integration/readers';

test('the journeys’ readers are retired before the curation journeys', async () => {
  let cursor: string | undefined;
  do {
    const page = await Users.list({ cursor, limit: 50 });
    for (const user of page.users) if (user.isActive) await retireReader(user.id);
    cursor = page.next;
  } while (cursor);
  const newest = await Users.list({ limit: 50 });
  expect(newest.users.filter((user) => user.isActive)).toEqual([]);
});
