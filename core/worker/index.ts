// The worker: every job the queue can run, by name, and what each schedule does. Only entry
// points import it (functions/worker and functions/cron, npm start's worker, schedules and web
// server): importing it registers its jobs with core/jobs, so any module of that process can
// queue a job by name without importing the module that defines it (ADR 0057).
import * as v from 'valibot';
import * as Automations from '#core/automations';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { isVisibleError } from '#core/common';
import * as Curation from '#core/curation';
import * as Experiments from '#core/experiments';
import * as Feed from '#core/feed';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';
import { SCHEDULES } from './schedules';

export { SCHEDULES, toEventBridgeCron, type Schedule } from './schedules';

/** Every job the worker can run. */
export const jobs = Jobs.registry([
  Automations.moveScores,
  Automations.addStreamAndImport,
  Automations.importArticles,
  Automations.clearTable,
  Automations.scoreArticles,
  Automations.scoreArticlesExperiment,
  Automations.populateSourceMatching,
  Automations.audienceMatching,
  Automations.promptTesting,
  Automations.refreshCorpus,
  Automations.scoreNewClues,
  Curation.pickBestContent,
  Newsletter.sendNewsletters,
  Feed.buildFeedJob,
  Experiments.runExperiment,
  Experiments.freezeDatasetJob,
  CampaignAnalytics.rollUpAnalytics,
] as Jobs.JobDefinition[]);

Jobs.register(jobs);

/**
 * Runs one schedule: enqueue its job as the scheduler, start due campaigns, or recover. Recovery
 * is here whole: runs and chunks a crash left behind, then the e-mails a lost queue message, a
 * dead sender or an ended retry delay left waiting in the outbox, then an issue whose last e-mail
 * settled as its sender died.
 */
export async function runSchedule(id: string): Promise<void> {
  const schedule = SCHEDULES.find((candidate) => candidate.id === id);
  if (!schedule) throw new Error(`Unknown schedule "${id}"`);
  switch (schedule.id) {
    case 'recover-jobs':
      await Jobs.recover(Date.now(), jobs);
      await Outbox.recoverDue();
      return void (await Newsletter.closeSettledIssues());
    case 'start-scheduled-campaigns':
      return void (await Newsletter.startDueCampaigns());
    case 'import-articles':
      return enqueueScheduled(Automations.importArticles, {});
    case 'score-articles':
      return enqueueScheduled(Automations.scoreArticles, {});
    case 'roll-up-analytics':
      return enqueueScheduled(CampaignAnalytics.rollUpAnalytics, {});
    case 'send-daily-newsletter':
      return sendPeriodIssue('daily');
    case 'send-weekly-newsletter':
      return sendPeriodIssue('weekly');
  }
}

/** The period's issue, unless an earlier turn of the schedule already sent it. */
async function sendPeriodIssue(frequency: Newsletter.Frequency): Promise<void> {
  const issue = await Newsletter.issueById(Newsletter.periodIssueId(frequency, Date.now()));
  if (issue?.status === 'done') return;
  await enqueueScheduled(Newsletter.sendNewsletters, { frequency });
}

async function enqueueScheduled<S extends v.GenericSchema, C>(
  job: Jobs.JobDefinition<S> | Jobs.ChunkedJobDefinition<S, C>,
  input: v.InferInput<S>,
): Promise<void> {
  try {
    await Jobs.enqueue(job, input, 'scheduler');
  } catch (error) {
    // Another job holds the slot: this turn is skipped; the next one runs as usual. (A skipped
    // newsletter turn is caught up by the next: its window starts where the last issue ended.)
    if (!isVisibleError(error) || error.code !== 'jobs.busy') throw error;
    logger.info(`Scheduled ${job.name} skipped: another process is running`);
  }
}
