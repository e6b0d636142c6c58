import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import { logger } from '#core/logs';
import * as Users from '#core/users';
import { eventNamesNaming, eventsNaming } from '#tests/integration/business-events';

/** A reader who started the funnel from a campaign link. */
async function reader() {
  const user = await Users.create({
    name: 'Fay Visitor',
    email: `fay-${ulid().toLowerCase()}@example.org`,
    status: 'Onboarded',
  });
  await Users.UserEntity.patch({ id: user.id }).set({ utm: 'spring', vus: 'ip' }).go();
  return (await Users.byId(user.id))!;
}

const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe("a reader's feed visits", () => {
  it('record the first visit and the day’s activity once, with the reader’s tracking values', async () => {
    const user = await reader();
    await Users.recordFeedVisit(user);
    const marked = (await Users.byId(user.id))!;
    const events = await eventsNaming(user.id);
    const day = marked.firstFeedVisitAt!.slice(0, 10);
    expect(events.map((event) => event.id).sort()).toEqual([
      `feed_first_visit:${user.id}`,
      `reader_active:${user.id}:${day}`,
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ path: '/feed', utm: 'spring', vus: 'ip', day });
    }
    expect(marked.lastActiveDay).toBe(day);
    // Later loads that day, from the user as stored or as read before the first: nothing more.
    await Users.recordFeedVisit(marked);
    await Users.recordFeedVisit(user);
    expect(await eventNamesNaming(user.id)).toHaveLength(2);
  });

  it('record a reader active once on each later day they read, and never a second first visit', async () => {
    const user = await reader();
    await Users.recordFeedVisit(user);
    const today = (await Users.byId(user.id))!.lastActiveDay!;
    const tomorrow = dayAfter(today);
    const at = `${tomorrow}T08:00:00.000Z`;
    await Users.recordFeedVisit((await Users.byId(user.id))!, at);
    await Users.recordFeedVisit((await Users.byId(user.id))!, `${tomorrow}T09:00:00.000Z`);
    expect(await eventNamesNaming(user.id, tomorrow)).toEqual(['reader_active']);
    expect((await eventsNaming(user.id, tomorrow))[0]?.id).toBe(
      `reader_active:${user.id}:${tomorrow}`,
    );
    expect(await Users.byId(user.id)).toMatchObject({ lastActiveDay: tomorrow });
  });

  it('of loads at the same moment, record each event once', async () => {
    const user = await reader();
    await Promise.all(Array.from({ length: 5 }, () => Users.recordFeedVisit(user)));
    expect((await eventNamesNaming(user.id)).sort()).toEqual(['feed_first_visit', 'reader_active']);
    const tomorrow = dayAfter((await Users.byId(user.id))!.lastActiveDay!);
    const marked = (await Users.byId(user.id))!;
    await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        Users.recordFeedVisit(marked, `${tomorrow}T10:00:00.00${index}Z`),
      ),
    );
    expect(await eventNamesNaming(user.id, tomorrow)).toEqual(['reader_active']);
  });

  it('never fail the page: a write that errors is logged and marks nothing', async () => {
    const user = await reader();
    const logged = vi.spyOn(logger, 'error');
    // A key longer than DynamoDB takes: the write errors for another reason than its condition.
    const at = `${new Date().toISOString()}${'x'.repeat(1100)}`;
    await expect(Users.recordFeedVisit(user, at)).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledWith('A feed visit could not be recorded', expect.anything());
    logged.mockRestore();
    const stored = (await Users.byId(user.id))!;
    expect(stored.firstFeedVisitAt).toBeUndefined();
    expect(stored.lastActiveDay).toBeUndefined();
    expect(await eventNamesNaming(user.id)).toEqual([]);
  });
});
