import { describe, expect, it } from 'vitest';
import { startOptions } from './start-options';

describe("npm start's flags", () => {
  it('run the schedules with kept data, not with --ephemeral, and with --ephemeral --schedules', () => {
    expect(startOptions([], {}).runSchedules).toBe(true);
    expect(startOptions(['--ephemeral'], {}).runSchedules).toBe(false);
    expect(startOptions(['--ephemeral', '--schedules'], {}).runSchedules).toBe(true);
    expect(startOptions(['--schedules', '--ephemeral'], {}).runSchedules).toBe(true);
  });

  it('keep the fixture feeds on one port with kept data, any free one in memory, FIXTURE_FEEDS_PORT over both', () => {
    expect(startOptions([], {}).fixtureFeedsPort).toBe(4590);
    expect(startOptions(['--ephemeral'], {}).fixtureFeedsPort).toBe(0);
    expect(startOptions(['--ephemeral'], { FIXTURE_FEEDS_PORT: '4711' }).fixtureFeedsPort).toBe(
      4711,
    );
    expect(startOptions([], { FIXTURE_FEEDS_PORT: '4711' }).fixtureFeedsPort).toBe(4711);
  });

  it('give the values of the others as typed', () => {
    const { args } = startOptions(
      ['--port', '3300', '--dynamo-port', '8811', '--mail-dir', '/tmp/m', '--data-dir', '/tmp/d'],
      {},
    );
    expect(args).toMatchObject({
      port: '3300',
      'dynamo-port': '8811',
      'mail-dir': '/tmp/m',
      'data-dir': '/tmp/d',
      ephemeral: false,
    });
  });

  it('refuse a flag npm start does not know, naming it', () => {
    expect(() => startOptions(['--ephemral'], {})).toThrow(/--ephemral/);
  });
});
