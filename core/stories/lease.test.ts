import { describe, expect, it } from 'vitest';
import { useOwnTable } from '#tests/integration/own-table';
import { acquire, release } from './lease';
import { StoryBuilderLeaseEntity } from './lease-entity';

// The lease is one item per table: other files' passes must not hold it.
useOwnTable('story-lease');

describe("The story builder's lease", () => {
  it('makes a second pass (another process) wait until the first gives it back, with what it wrote', async () => {
    const first = await acquire();
    let secondHasIt = false;
    const second = acquire().then((lease) => {
      secondHasIt = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondHasIt).toBe(false);

    await release(first, ['story-a', 'story-b']);

    expect(await second).toMatchObject({ written: ['story-a', 'story-b'] });
    await release(await second, []);
  });

  it('is not given back by a pass that no longer holds it', async () => {
    const held = await acquire();
    await release({ ...held, holder: 'someone-else' }, ['story-x']);
    let taken = false;
    const next = acquire().then((lease) => {
      taken = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(taken).toBe(false);
    await release(held, []);
    await release(await next, []);
  });

  it('is taken over once its holder let it expire (a pass that died)', async () => {
    await StoryBuilderLeaseEntity.update({})
      .set({ holder: 'a-pass-that-died', until: new Date(Date.now() - 1_000).toISOString() })
      .go();
    const began = Date.now();
    const lease = await acquire();
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(lease.holder).not.toBe('a-pass-that-died');
    await release(lease, []);
  });
});
