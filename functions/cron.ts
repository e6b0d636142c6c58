// EventBridge schedule -> the schedule's job (the rule passes { schedule: id } as its input).
import * as Automations from '#core/automations';
import { flush } from '#core/logs';

export async function handler(event: { schedule: string }): Promise<void> {
  await Automations.runSchedule(event.schedule);
  await flush();
}
