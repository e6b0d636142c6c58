// EventBridge Scheduler -> the schedule's job. Scheduler delivers the target's input verbatim as
// the event ({ schedule: id }, set in stacks/jobs.ts); an EventBridge rule's "Scheduled Event"
// envelope is read too, with the id in its detail, so moving to rules cannot silently drop runs.
import * as v from 'valibot';
import { flush } from '#core/logs';
import * as Worker from '#core/worker';

const ScheduleId = v.picklist(Worker.SCHEDULES.map((schedule) => schedule.id));
const CronEvent = v.union([
  v.object({ schedule: ScheduleId }),
  v.object({
    'detail-type': v.literal('Scheduled Event'),
    detail: v.object({ schedule: ScheduleId }),
  }),
]);

export async function handler(event: unknown): Promise<void> {
  const parsed = v.safeParse(CronEvent, event);
  if (!parsed.success) {
    throw new Error(`The cron event names no known schedule: ${JSON.stringify(event)}`);
  }
  const id = 'schedule' in parsed.output ? parsed.output.schedule : parsed.output.detail.schedule;
  try {
    await Worker.runSchedule(id);
  } finally {
    await flush();
  }
}
