// What `npm start` was asked for (scripts/start.ts documents each flag) and what that decides: which
// port the fixture feeds take and whether the schedules run.
import { parseArgs } from 'node:util';

export function startOptions(argv: string[], env: Record<string, string | undefined>) {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      ephemeral: { type: 'boolean', default: false },
      schedules: { type: 'boolean', default: false },
      port: { type: 'string' },
      'dynamo-port': { type: 'string' },
      'mail-dir': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  return {
    args,
    /**
     * The seeded streams store their URLs, so with kept data the fixture feeds stay on one port
     * (FIXTURE_FEEDS_PORT moves it); in memory nothing remembers it and any free port does.
     */
    fixtureFeedsPort: env.FIXTURE_FEEDS_PORT
      ? Number(env.FIXTURE_FEEDS_PORT)
      : args.ephemeral
        ? 0
        : 4590,
    /** Test runs must not have the hourly import start behind their back. */
    runSchedules: !args.ephemeral || args.schedules,
  };
}
