// Two clue changes close together: the first queues the reader's scoring run (one slot per
// reader); the second, made while that run scores, finds the slot busy and is left to the
// schedule. The run's end then keeps the reader's list and their 'updating' notice (it neither
// forgets the scored clue set nor builds from the unscored one), and the schedule catches up.
import { describe, expect, it } from 'vitest';
import { receive } from '#tests/integration/job-queue';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import * as Feed from '#core/feed';
import * as Jobs from '#core/jobs';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithPassword } from '#tests/integration/readers';

useOwnTable('clue-race');

const deliver = (...messages: { messageId: string; body: string }[]) =>
  Jobs.handleBatch(messages, Worker.jobs);

describe('a clue change made while the previous one is being scored', () => {
  it(
    'never leaves the reader with an empty feed and no updating notice',
    { timeout: 60_000 },
    async () => {
      for (let i = 0; i < 6; i++) {
        await createArticle({
          title: `Home stakers run Ethereum validators (${i})`,
          publishedAt: new Date(Date.UTC(2026, 10, 20, 0, i)).toISOString(),
        });
      }
      const { user } = await readerWithPassword({ clues: ['run Ethereum validators at home'] });
      const signup = (await Jobs.lastRun(Automations.scoreNewClues.name))!;
      await deliver(...(await receive(signup.id)));
      await Promise.all((await receive(signup.id)).map((message) => deliver(message)));
      const before = (await Users.byId(user.id))!;
      expect((await Feed.page(before, { limit: 100 })).count).toBe(6);

      // The reader applies a review, and their scoring run plans.
      await Users.applyClueChanges(user.id, {
        category: 'change_clues',
        cluesToBeAdded: [{ clue: 'stake ETH with a distributed validator' }],
      });
      const run = (await Jobs.lastRun(Automations.scoreNewClues.name))!;
      expect(run.id).not.toBe(signup.id);
      await deliver(...(await receive(run.id)));
      // While it scores, they click a liked story's clue chip.
      await Users.applyClueChanges(user.id, {
        category: 'positive_feeback_on_article',
        cluesToBeAdded: [{ clue: 'follow Ethereum client diversity' }],
      });
      await Promise.all((await receive(run.id)).map((message) => deliver(message)));
      expect((await Jobs.byId(run.id))!.status).toBe('Success');

      const after = (await Users.byId(user.id))!;
      const { count } = await Feed.page(after, { limit: 100 });
      // Either the feed still shows stories, or the reader is still told it is being updated.
      expect({ count, updating: !!after.feedRequestedAt }).not.toEqual({
        count: 0,
        updating: false,
      });
    },
  );
});
