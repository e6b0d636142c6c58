// Vitest's file order: the files known to run longest start first, so none of them starts last and
// keeps the run going alone. Vitest orders by the durations it cached on this machine, and a fresh
// checkout has none: it would start them by file size, and the longest (a few hundred lines) late.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, from a full run on 2 cores (each took 17 s or more there). */
export const SLOWEST_FILES = [
  'tests/sweeps/restart.test.ts',
  'tests/integration/newsletter-kill-points.test.ts',
  'core/feed/list-rebuild.test.ts',
  'tests/sweeps/forms.fuzz.test.ts',
  'core/subscribers/races.test.ts',
  'scripts/seed/analytics.test.ts',
  'core/experiments/experiments.test.ts',
  'core/campaign-analytics/kept-report.test.ts',
  'core/feed/feed-cap.test.ts',
  'core/experiments/experiments-edges.test.ts',
  'tests/sweeps/hardening-http.test.ts',
  'tests/sweeps/apis.fuzz.test.ts',
  'core/ai/local/relevance.test.ts',
  'core/automations/scoring.test.ts',
  'tests/sweeps/model-failures-http.test.ts',
  'core/scoring/production.test.ts',
  'tests/sweeps/model-failures.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = SLOWEST_FILES.indexOf(relative(file.project.config.root, file.moduleId));
      return at === -1 ? SLOWEST_FILES.length : at;
    };
    // Array sort is stable: the other files keep Vitest's own order after these.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
