// Queues 'Move scores to the new keys' (ADR 0033) once after deploying the score store, on a
// deployed stage:
//   npx sst shell --stage production -- npm run move-scores
// The worker runs it in chunks; it is idempotent, so running it again moves nothing twice.
// `npm start` queues it itself on every start. Without `sst shell`, set TABLE_NAME,
// JOBS_QUEUE_URL, APP_SECRET and PUBLIC_URL (and AWS credentials) yourself.
import { settingsFromSstShell } from './sst-shell';

async function main(): Promise<number> {
  settingsFromSstShell();
  const Jobs = await import('#core/jobs');
  const { moveScores } = await import('#core/automations');
  const process = await Jobs.enqueue(moveScores, {}, 'move-scores-script');
  console.log(`Queued ${moveScores.title} (process ${process.id}); the jobs worker runs it.`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
