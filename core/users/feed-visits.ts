// A reader's feed visits, as analytics counts them: their first one ever (`feed_first_visit`) and
// their first of each day (`reader_active`), each marked on the user item in the same write as its
// event, so a reload, a second tab or two requests at once record it once. Every later load that
// day writes nothing: the marks are on the user item the request has read already.
import { createWriteTransaction } from 'electrodb';
import * as Analytics from '#core/analytics';
import { logger } from '#core/logs';
import { UserEntity } from './entity';
import { readerEvent } from './events';
import { committedOnce } from '#core/db';
import { type User } from './read';

const FEED_PATH = '/feed';

export type FeedVisitor = Pick<
  User,
  'id' | 'utm' | 'raud' | 'vus' | 'firstFeedVisitAt' | 'lastActiveDay'
>;

/**
 * Records a load of the reader's feed, decided from the user as the request read it: nothing when
 * today's visit is recorded already, else one transaction conditioned on the marks it sets not
 * being set (`firstFeedVisitAt` absent, `lastActiveDay` not today). Never fails the page: a write
 * that errors is logged and the page goes on.
 */
export async function recordFeedVisit(
  user: FeedVisitor,
  at = new Date().toISOString(),
): Promise<void> {
  const day = at.slice(0, 10);
  const first = user.firstFeedVisitAt === undefined;
  const active = user.lastActiveDay !== day;
  if (!first && !active) return;
  const events = [
    ...(first ? [{ name: 'feed_first_visit' as const, key: user.id }] : []),
    ...(active ? [{ name: 'reader_active' as const, key: `${user.id}:${day}` }] : []),
  ];
  try {
    await committedOnce(
      createWriteTransaction(
        { users: UserEntity, event: Analytics.AnalyticsEventEntity },
        ({ users, event }) => [
          users
            .patch({ id: user.id })
            .set({ ...(first && { firstFeedVisitAt: at }), ...(active && { lastActiveDay: day }) })
            .where((attr, op) =>
              [
                ...(first ? [op.notExists(attr.firstFeedVisitAt)] : []),
                ...(active
                  ? [`(${op.notExists(attr.lastActiveDay)} OR ${op.ne(attr.lastActiveDay, day)})`]
                  : []),
              ].join(' AND '),
            )
            .commit(),
          ...events.map((item) =>
            event.create(readerEvent(user, { ...item, path: FEED_PATH }, at)).commit(),
          ),
        ],
      ),
    );
  } catch (error) {
    logger.error('A feed visit could not be recorded', { error, userId: user.id });
  }
}
