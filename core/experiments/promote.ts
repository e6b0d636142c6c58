// 'Use this prompt and model in production': a scoring run's prompt and model become production's
// scoring setup, through the scoring foundation's promote (conditioned on the setup it replaces,
// logged, and followed by a scoring run). Nothing else of the run reaches production.
import { VisibleError } from '#core/common';
import * as Scoring from '#core/scoring';
import { implementation, type Implementation } from './catalog';
import { readRun } from './run-store';
import { viewOf } from './runs';

export const PROMOTE_MESSAGES = {
  unknown: 'This implementation run no longer exists',
  notScoring: 'Only a run that scores articles can be promoted',
  notDone: 'Only a run that ended Success can be promoted',
} as const;

/** Only a run that scores articles has a prompt and model production scoring can use. */
export const isPromotable = (owner: Implementation | undefined) =>
  owner?.kind === 'score' && owner.material === 'articles';

export async function promoteRun({
  id,
  systemUserId,
  revision,
}: {
  id: string;
  systemUserId: string;
  /** The production setup's revision the operator saw. */
  revision?: number;
}) {
  const item = await readRun(id);
  if (!item) throw new VisibleError('experiment.unknown_run', PROMOTE_MESSAGES.unknown, 404);
  const owner = implementation(item.expImplementationId);
  if (!isPromotable(owner)) {
    throw new VisibleError('experiment.not_scoring', PROMOTE_MESSAGES.notScoring, 400);
  }
  const view = await viewOf(item, false);
  if (view.status !== 'Success') {
    throw new VisibleError('experiment.not_done', PROMOTE_MESSAGES.notDone, 409);
  }
  return Scoring.promote({
    promptId: view.input.expPromptId ?? '',
    modelId: view.input.expGptModelId ?? '',
    systemUserId,
    ...(revision !== undefined && { revision }),
  });
}
