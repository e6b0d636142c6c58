// The jobs queue and its dead-letter queue (5 receives, then dead letters), and the dead letters
// of the schedules: the event of a cron that could not be delivered or kept failing.
export const deadLetters = new sst.aws.Queue('JobsDeadLetters', {
  visibilityTimeout: '15 minutes',
});

export const jobsQueue = new sst.aws.Queue('Jobs', {
  // Longer than the worker's timeout, so a running job (or chunk) is never handed to a second
  // worker; a chunk that threw is retried when its message becomes visible again.
  visibilityTimeout: '16 minutes',
  dlq: { queue: deadLetters.arn, retry: 5 },
});

export const scheduleDeadLetters = new sst.aws.Queue('ScheduleDeadLetters', {
  // Two weeks (SQS's longest) for an operator to read which schedule failed, and when.
  transform: { queue: (queue) => void (queue.messageRetentionSeconds = 14 * 24 * 60 * 60) },
});
