// The jobs queue and the e-mail queue (ADR 0058), each with its dead-letter queue (5 receives,
// then dead letters), and the dead letters of the schedules: the event of a cron that could not
// be delivered or kept failing.
export const deadLetters = new sst.aws.Queue('JobsDeadLetters', {
  visibilityTimeout: '15 minutes',
});

export const jobsQueue = new sst.aws.Queue('Jobs', {
  // Longer than the worker's timeout, so a running job (or chunk) is never handed to a second
  // worker; a chunk that threw is retried when its message becomes visible again.
  visibilityTimeout: '16 minutes',
  dlq: { queue: deadLetters.arn, retry: 5 },
});

export const emailDeadLetters = new sst.aws.Queue('EmailDeadLetters', {
  visibilityTimeout: '6 minutes',
});

/**
 * The outbox's e-mails and the jobs that queue them (a digest send): a worker of their own, so
 * chunks that run for 15 minutes never hold a digest's e-mails up.
 */
export const emailQueue = new sst.aws.Queue('Email', {
  // Longer than its worker's 5-minute timeout (stacks/jobs.ts).
  visibilityTimeout: '6 minutes',
  dlq: { queue: emailDeadLetters.arn, retry: 5 },
});

export const scheduleDeadLetters = new sst.aws.Queue('ScheduleDeadLetters', {
  // Two weeks (SQS's longest) for an operator to read which schedule failed, and when.
  transform: { queue: (queue) => void (queue.messageRetentionSeconds = 14 * 24 * 60 * 60) },
});
