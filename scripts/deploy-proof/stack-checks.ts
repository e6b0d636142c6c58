// What the recorded stack (stack.ts) must hold, each check a list of problems (none when it holds):
// every setting core/config reads reaches every server function, secrets only as links, a secret
// left at its placeholder never passes for a value, no schedule's run is lost silently, and every
// queue a worker reads has a concurrency of its own and alarmed dead letters.
import { parseConfig, SECRET_SETTINGS, SETTING_NAMES, type SecretSetting } from '#core/config';
import { SCHEDULES } from '#core/worker';
import { NOT_ON_AWS } from '../../stacks/settings';
import { referencePath, type Stack } from './stack';

type Args = Record<string, unknown>;
export type ServerFunction = { name: string; environment: Args; link: unknown[]; args: Args };

const isPlainObject = (value: unknown): value is Args =>
  typeof value === 'object' && value !== null && referencePath(value) === undefined;

function asFunction(name: string, args: Args): ServerFunction {
  return {
    name,
    environment: isPlainObject(args.environment) ? args.environment : {},
    link: Array.isArray(args.link) ? args.link : [],
    args,
  };
}

/** Every function the stack deploys: a site's server, and any arguments naming a handler. */
export function serverFunctions(stack: Stack): ServerFunction[] {
  const found: ServerFunction[] = [];
  const collect = (where: string, value: unknown) => {
    if (Array.isArray(value)) return value.forEach((item) => collect(where, item));
    if (!isPlainObject(value)) return;
    if (typeof value.handler === 'string')
      found.push(asFunction(`${where} ${value.handler}`, value));
    Object.values(value).forEach((item) => collect(where, item));
  };
  for (const resource of stack.resources) {
    const where = `${resource.type}:${resource.name}`;
    if (resource.type === 'sst.aws.Remix') found.push(asFunction(where, resource.args as Args));
    else collect(where, resource.args);
  }
  for (const call of stack.calls) collect(call.path, call.args);
  return found;
}

const secretLink = (setting: SecretSetting) => `sst.Secret:${SECRET_SETTINGS[setting]}`;
const isSecret = (name: string): name is SecretSetting => name in SECRET_SETTINGS;

/** (a) Each setting of core/config's schema is forwarded, linked, or named as not on AWS. */
export function settingsReachEveryFunction(stack: Stack): string[] {
  return serverFunctions(stack).flatMap((fn) => {
    const linked = new Set(fn.link.map(referencePath));
    const reaches = (name: string) =>
      name in fn.environment ||
      name in NOT_ON_AWS ||
      (isSecret(name) && linked.has(secretLink(name)));
    return [
      ...SETTING_NAMES.filter((name) => !reaches(name)).map(
        (name) => `${fn.name} never gets ${name}`,
      ),
      ...Object.keys(NOT_ON_AWS)
        .filter((name) => name in fn.environment)
        .map((name) => `${fn.name} gets ${name}, which is not for AWS: ${NOT_ON_AWS[name]}`),
    ];
  });
}

/** (b) No secret, by name or by value, is a plain environment variable of any function. */
export function secretsOnlyAsLinks(stack: Stack): string[] {
  return serverFunctions(stack).flatMap((fn) =>
    Object.entries(fn.environment).flatMap(([name, value]) =>
      isSecret(name) || referencePath(value)?.startsWith('sst.Secret:')
        ? [`${fn.name} has the secret ${name} in its plain environment`]
        : [],
    ),
  );
}

/** A configuration that would start, so only the secret under test can fail it. */
const STARTS = {
  APP_SECRET: 'deploy-proof-secret-that-is-long-enough-0123456789',
  SMTP_URL: 'smtps://user:pass@smtp.example:465',
  PUBLIC_URL: 'https://cluefeed.example',
};

/** Settings that make a secret needed, beyond those always needed in production. */
const NEEDED_WHEN: Partial<Record<SecretSetting, Record<string, string>>> = {
  MAILCHIMP_API_KEY: {
    MAILING_LIST: 'mailchimp',
    MAILCHIMP_SERVER_PREFIX: 'us21',
    MAILCHIMP_LIST_ID: 'l1',
  },
};

/**
 * (c) Each secret's default in the stack reads as no value: where the secret is needed, the
 * start fails naming the secret to set; elsewhere the setting reads as unset.
 */
export function placeholderSecretsFail(stack: Stack): string[] {
  return stack.resources.flatMap((resource) => {
    if (resource.type !== 'sst.Secret' || typeof resource.args !== 'string') return [];
    const placeholder = resource.args;
    const setting = (Object.keys(SECRET_SETTINGS) as SecretSetting[]).find(
      (name) => SECRET_SETTINGS[name] === resource.name,
    );
    if (!setting) return [`the secret ${resource.name} is no setting of core/config`];
    const problems: string[] = [];
    const unset = parseConfig({ ...STARTS, [setting]: placeholder })[setting];
    if (unset !== undefined) problems.push(`${setting}=${placeholder} reads as a value`);
    const needs = NEEDED_WHEN[setting];
    if (needs) {
      try {
        parseConfig({ ...STARTS, ...needs, [setting]: placeholder });
        problems.push(`${setting}=${placeholder} passes where it is needed`);
      } catch (error) {
        if (!String(error).includes(`the ${resource.name} secret still holds a placeholder`)) {
          problems.push(
            `${setting}=${placeholder} fails without naming ${resource.name}: ${error}`,
          );
        }
      }
    }
    return problems;
  });
}

type Alarm = { metricName?: string; dimensions?: Args; alarmActions?: unknown[] };

/** Queues whose dead-letter queue has an alarm on its visible messages, by reference. */
function alarmedQueues(stack: Stack): Set<string | undefined> {
  return new Set(
    stack.resources.flatMap((resource) => {
      const alarm = resource.args as Alarm;
      return resource.type === 'aws.cloudwatch.MetricAlarm' &&
        alarm.metricName === 'ApproximateNumberOfMessagesVisible' &&
        (alarm.alarmActions?.length ?? 0) > 0
        ? [referencePath(alarm.dimensions?.QueueName)]
        : [];
    }),
  );
}

/**
 * Every queue a worker subscribes to (jobs, e-mail; ADR 0058) caps its own concurrency, so one
 * queue's work never takes another's workers, and sends what keeps failing to a dead-letter
 * queue with an alarm.
 */
export function workerQueuesApart(stack: Stack): string[] {
  const alarmed = alarmedQueues(stack);
  const subscriptions = stack.calls.filter((call) =>
    /^sst\.aws\.Queue:\w+\.subscribe$/.test(call.path),
  );
  if (subscriptions.length < 2)
    return [`${subscriptions.length} worker queue(s); jobs and e-mail need one each`];
  return subscriptions.flatMap((call) => {
    const name = call.path.slice('sst.aws.Queue:'.length, -'.subscribe'.length);
    const queue = stack.resources.find(
      (resource) => resource.type === 'sst.aws.Queue' && resource.name === name,
    );
    const dlq = (queue?.args as { dlq?: { queue?: unknown; retry?: unknown } } | undefined)?.dlq;
    const deadLetters = referencePath(dlq?.queue)?.replace(/\.arn$/, '');
    const subscriber = (Array.isArray(call.args) ? call.args[1] : undefined) as Args | undefined;
    const scaling = (subscriber?.transform as Args | undefined)?.eventSourceMapping as
      { scalingConfig?: { maximumConcurrency?: unknown } } | undefined;
    const checks: [boolean, string][] = [
      [Number(scaling?.scalingConfig?.maximumConcurrency) > 0, 'has no concurrency of its own'],
      [deadLetters !== undefined && Number(dlq?.retry) > 0, 'has no dead-letter queue'],
      [alarmed.has(`${deadLetters}.nodes.queue.name`), 'has no alarm on its dead letters'],
    ];
    return checks.filter(([ok]) => !ok).map(([, problem]) => `Queue ${name} ${problem}`);
  });
}

/**
 * Every schedule retries a failed delivery and a failed run, sends what still fails to a
 * dead-letter queue, and that queue has an alarm on its visible messages.
 */
export function schedulesNeverLostSilently(stack: Stack): string[] {
  const crons = stack.resources.filter((resource) => resource.type === 'sst.aws.CronV2');
  const problems =
    crons.length === SCHEDULES.length
      ? []
      : [`${crons.length} schedules deployed for ${SCHEDULES.length} in core/worker`];
  const alarmed = alarmedQueues(stack);
  for (const cron of crons) {
    const args = cron.args as Args;
    const fn = isPlainObject(args.function) ? args.function : {};
    const queue = referencePath(args.dlq)?.replace(/\.arn$/, '');
    const invokeConfig: Args = {};
    const transform = (fn.transform as Args | undefined)?.eventInvokeConfig;
    if (typeof transform === 'function') transform(invokeConfig);
    const onFailure = (invokeConfig.destinationConfig as { onFailure?: { destination?: unknown } })
      ?.onFailure?.destination;
    const permissions = (fn.permissions ?? []) as { actions: string[]; resources: unknown[] }[];
    const checks: [boolean, string][] = [
      [Number(args.retries) > 0, 'retries no failed delivery'],
      [queue !== undefined, 'has no dead-letter queue'],
      [Number(fn.retries) > 0, 'retries no failed run'],
      [
        queue !== undefined && referencePath(onFailure) === `${queue}.arn`,
        'sends a failed run nowhere (its function has no on-failure destination)',
      ],
      [
        permissions.some(
          (permission) =>
            permission.actions.includes('sqs:SendMessage') &&
            permission.resources.some((item) => referencePath(item) === `${queue}.arn`),
        ),
        'may not send to its dead-letter queue',
      ],
      [alarmed.has(`${queue}.nodes.queue.name`), 'has no alarm on its dead letters'],
    ];
    for (const [ok, problem] of checks) if (!ok) problems.push(`${cron.name} ${problem}`);
  }
  return problems;
}
