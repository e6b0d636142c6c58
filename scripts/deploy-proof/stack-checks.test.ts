import { beforeAll, describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '#core/config';
import { recordStack, type Stack, type StackResource } from './stack';
import {
  placeholderSecretsFail,
  secretsOnlyAsLinks,
  serverFunctions,
  schedulesNeverLostSilently,
  settingsReachEveryFunction,
  workerQueuesApart,
} from './stack-checks';

let stack: Stack;
beforeAll(async () => {
  stack = await recordStack();
});

type Args = Record<string, unknown>;

/** The stack with one resource's arguments changed. */
function changed(name: string, change: (args: Args) => unknown): Stack {
  return {
    ...stack,
    resources: stack.resources.map((resource): StackResource =>
      resource.name === name ? { ...resource, args: change(resource.args as Args) } : resource,
    ),
  };
}

const web = (): Args => stack.resources.find((resource) => resource.name === 'Web')!.args as Args;

describe('the deploy proof of the stack', () => {
  it('finds every server function: the web server, the worker for each queue and one per schedule', () => {
    expect(serverFunctions(stack).map((fn) => fn.name)).toEqual([
      ...[
        'import-articles',
        'score-articles',
        'send-daily-newsletter',
        'send-weekly-newsletter',
        'start-scheduled-campaigns',
        'roll-up-analytics',
        'recover-jobs',
      ].map((id) => `sst.aws.CronV2:Schedule-${id} functions/cron.handler`),
      'sst.aws.Remix:Web',
      'sst.aws.Queue:Jobs.subscribe functions/worker.handler',
      'sst.aws.Queue:Email.subscribe functions/worker.handler',
    ]);
  });

  it('holds on the stack: every setting reaches every function, secrets only as links', () => {
    expect(SETTING_NAMES).toContain('FEED_FETCH_ALLOW');
    expect(settingsReachEveryFunction(stack)).toEqual([]);
    expect(secretsOnlyAsLinks(stack)).toEqual([]);
    expect(placeholderSecretsFail(stack)).toEqual([]);
    expect(schedulesNeverLostSilently(stack)).toEqual([]);
    expect(workerQueuesApart(stack)).toEqual([]);
  });

  it('names a worker queue without its own concurrency or dead letters, and a missing one', () => {
    const calls = (change: (call: Stack['calls'][number]) => Stack['calls'][number] | []) => ({
      ...stack,
      calls: stack.calls.flatMap((call) =>
        call.path === 'sst.aws.Queue:Email.subscribe' ? change(call) : [call],
      ),
    });
    const capless = calls((call) => {
      const [fn, subscriber] = call.args as [unknown, Args];
      return { ...call, args: [fn, { ...subscriber, transform: {} }] };
    });
    expect(workerQueuesApart(capless)).toEqual(['Queue Email has no concurrency of its own']);
    const noDlq = changed('Email', ({ dlq: _dlq, ...args }) => args);
    expect(workerQueuesApart(noDlq)).toEqual([
      'Queue Email has no dead-letter queue',
      'Queue Email has no alarm on its dead letters',
    ]);
    expect(workerQueuesApart(calls(() => []))).toEqual([
      '1 worker queue(s); jobs and e-mail need one each',
    ]);
  });

  it('names a setting of the schema the stack does not forward, and a secret not linked', () => {
    const { FEED_FETCH_ALLOW: _dropped, ...environment } = web().environment as Args;
    const link = (web().link as unknown[]).slice(0, -1);
    expect(
      settingsReachEveryFunction(changed('Web', (args) => ({ ...args, environment, link }))),
    ).toEqual([
      'sst.aws.Remix:Web never gets OPENAI_COMPATIBLE_API_KEY',
      'sst.aws.Remix:Web never gets FEED_FETCH_ALLOW',
    ]);
  });

  it('names a secret in a plain environment variable, by its name or by its value', () => {
    const secret = (web().link as unknown[]).at(-1);
    const environment = { ...(web().environment as Args), APP_SECRET: 'x', SECRET: secret };
    expect(secretsOnlyAsLinks(changed('Web', (args) => ({ ...args, environment })))).toEqual([
      'sst.aws.Remix:Web has the secret APP_SECRET in its plain environment',
      'sst.aws.Remix:Web has the secret SECRET in its plain environment',
    ]);
  });

  it('names a secret default that passes for a value where the secret is needed', () => {
    expect(placeholderSecretsFail(changed('MailchimpApiKey', () => 'none'))).toEqual([
      'MAILCHIMP_API_KEY=none reads as a value',
      'MAILCHIMP_API_KEY=none passes where it is needed',
    ]);
  });

  it('names a schedule without retries, dead-letter queue or alarm', () => {
    const bare = changed('Schedule-recover-jobs', (args) => ({
      schedule: args.schedule,
      event: args.event,
      function: { handler: 'functions/cron.handler' },
    }));
    expect(schedulesNeverLostSilently(bare)).toEqual(
      [
        'retries no failed delivery',
        'has no dead-letter queue',
        'retries no failed run',
        'sends a failed run nowhere (its function has no on-failure destination)',
        'may not send to its dead-letter queue',
        'has no alarm on its dead letters',
      ].map((problem) => `Schedule-recover-jobs ${problem}`),
    );
    const unwatched = {
      ...stack,
      resources: stack.resources.filter((resource) => resource.name !== 'ScheduleDeadLettersAlarm'),
    };
    expect(schedulesNeverLostSilently(unwatched)).toHaveLength(7);
  });
});
