// EventBridge Scheduler -> the schedule's job. Scheduler delivers the target's input verbatim as
// the event ({ schedule: id }, set in stacks/jobs.ts); an EventBridge rule's "Scheduled Event"
// envelope is read too, with the id in its detail, so moving to rules cannot silently drop runs.
import * as v from 'valibot';
import * as Automations from '#core/automations';
import { flush } from '#core/logs';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';

const ScheduleId = v.picklist(Automations.SCHEDULES.map((schedule) => schedule.id));
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
    await runSchedule(id);
  } finally {
    await flush();
  }
}

/**
 * One schedule's work; the 5-minute recovery also queues again the e-mails a lost queue message,
 * a dead sender or an ended retry delay left waiting in the outbox, for every worker to send,
 * and closes an issue whose last e-mail settled as its sender died.
 * `npm start` runs its schedules through this too.
 */
export async function runSchedule(id: string): Promise<void> {
  await Automations.runSchedule(id);
  if (id !== 'recover-jobs') return;
  await Outbox.recoverDue();
  // An issue whose last e-mail settled as its sender died is closed here.
  await Newsletter.closeSettledIssues();
}
