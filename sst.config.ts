/// <reference path="./.sst/platform/config.d.ts" />

// Cluefeed on AWS. The resources live in stacks/: one module per concern, imported inside run()
// (SST evaluates the modules only when deploying, after its globals such as `sst` and `$app` exist).
// Type-checked offline by `npm run typecheck` after `sst install` (see docs/operations.md).
export default $config({
  app(input) {
    return {
      name: 'cluefeed',
      home: 'aws',
      removal: input?.stage === 'production' ? 'retain' : 'remove',
      protect: input?.stage === 'production',
      // Pinned to the @pulumi/aws version sst 4.17.1 ships with, so `sst install` needs only npm.
      providers: { aws: '7.20.0' },
    };
  },
  async run() {
    const { table } = await import('./stacks/storage');
    const { appSecret } = await import('./stacks/secrets');
    const { jobsQueue } = await import('./stacks/jobs');
    const { router } = await import('./stacks/web');
    const { alarmTopic } = await import('./stacks/alarms');

    return {
      url: router.url,
      table: table.name,
      secret: appSecret.name,
      jobsQueue: jobsQueue.url,
      alarms: alarmTopic.arn,
    };
  },
});
