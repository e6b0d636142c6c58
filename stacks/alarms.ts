// Alarms an operator must hear about: a job, an e-mail or a schedule's run that landed in a dead-letter
// queue, and any server function throwing. They notify the `Alarms` SNS topic; `ALARM_EMAIL` at deploy time subscribes
// an address (the subscription must be confirmed from the e-mail AWS sends).
import { SCHEDULES } from '../core/worker/schedules';
import { crons, emailWorker, worker } from './jobs';
import { deadLetters, emailDeadLetters, scheduleDeadLetters } from './queue';
import { web } from './web';

export const alarmTopic = new sst.aws.SnsTopic('Alarms');

const alarmEmail = process.env.ALARM_EMAIL?.trim();
if (alarmEmail) {
  new aws.sns.TopicSubscription('AlarmsEmail', {
    topic: alarmTopic.arn,
    protocol: 'email',
    endpoint: alarmEmail,
  });
}

const notify = { alarmActions: [alarmTopic.arn], okActions: [alarmTopic.arn] };

/** Any message visible in a dead-letter queue within five minutes. */
function deadLettersAlarm(name: string, queue: sst.aws.Queue, description: string) {
  new aws.cloudwatch.MetricAlarm(`${name}Alarm`, {
    alarmDescription: description,
    namespace: 'AWS/SQS',
    metricName: 'ApproximateNumberOfMessagesVisible',
    dimensions: { QueueName: queue.nodes.queue.name },
    statistic: 'Maximum',
    period: 300,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: 'GreaterThanThreshold',
    treatMissingData: 'notBreaching',
    ...notify,
  });
}

deadLettersAlarm(
  'JobsDeadLetters',
  deadLetters,
  'A job message reached the dead-letter queue (see docs/operations.md, Jobs).',
);
deadLettersAlarm(
  'EmailDeadLetters',
  emailDeadLetters,
  'An e-mail message reached the dead-letter queue (see docs/operations.md, E-mail outbox).',
);
deadLettersAlarm(
  'ScheduleDeadLetters',
  scheduleDeadLetters,
  "A schedule's run failed after its retries (see docs/operations.md, Jobs).",
);

/** One alarm per function: any invocation error in five minutes. */
function errorAlarm(name: string, functionName: $util.Input<string>) {
  new aws.cloudwatch.MetricAlarm(`${name}ErrorsAlarm`, {
    alarmDescription: `${name} threw an error (read its CloudWatch logs).`,
    namespace: 'AWS/Lambda',
    metricName: 'Errors',
    dimensions: { FunctionName: functionName },
    statistic: 'Sum',
    period: 300,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: 'GreaterThanThreshold',
    treatMissingData: 'notBreaching',
    ...notify,
  });
}

errorAlarm(
  'Web',
  web.nodes.server!.apply((server) => server.name),
);
errorAlarm('Worker', worker.nodes.function.name);
errorAlarm('EmailWorker', emailWorker.nodes.function.name);
crons.forEach((cron, index) =>
  errorAlarm(`Schedule-${SCHEDULES[index]!.id}`, cron.nodes.function.name),
);
