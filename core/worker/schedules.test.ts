import { describe, expect, it } from 'vitest';
import { SCHEDULES, toEventBridgeCron } from './schedules';

describe('schedules', () => {
  it('writes five-field crons the way EventBridge reads them', () => {
    expect(toEventBridgeCron('0 * * * *')).toBe('cron(0 * * * ? *)');
    expect(toEventBridgeCron('*/5 * * * *')).toBe('cron(*/5 * * * ? *)');
    expect(toEventBridgeCron('30 6 * * 1')).toBe('cron(30 6 ? * 2 *)');
    expect(toEventBridgeCron('0 9 * * 0,6')).toBe('cron(0 9 ? * 1,7 *)');
    expect(() => toEventBridgeCron('nonsense')).toThrow('Not a 5-field cron');
  });

  it('imports articles every hour', () => {
    expect(SCHEDULES.find((schedule) => schedule.id === 'import-articles')?.cron).toBe('0 * * * *');
  });
});
