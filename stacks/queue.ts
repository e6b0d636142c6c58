// The jobs queue and its dead-letter queue (5 receives, then dead letters).
export const deadLetters = new sst.aws.Queue('JobsDeadLetters', {
  visibilityTimeout: '15 minutes',
});

export const jobsQueue = new sst.aws.Queue('Jobs', {
  // Longer than the worker's timeout, so a running job (or chunk) is never handed to a second
  // worker; a chunk that threw is retried when its message becomes visible again.
  visibilityTimeout: '16 minutes',
  dlq: { queue: deadLetters.arn, retry: 5 },
});
