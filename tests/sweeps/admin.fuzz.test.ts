// Field-aware fuzzing of the admin forms: RUNS generated bad inputs each, with an admin session
// where the form needs one, answered with a 4xx and nothing stored. Sign-in verifies a password
// hash per attempt, so this file runs on its own worker.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { config } from '#core/config';
import { formBody, fuzz, junk, unreadable, type FuzzRequest } from '#tests/integration/fuzz';
import { actionRoute, routeTable } from '#tests/integration/route-table';
import { seedSweepWorld, sweepTable, type SweepWorld } from '#tests/integration/sweep-world';

const table = await routeTable();
const route = (pattern: string) => actionRoute(table, pattern);

/** The app's own origin, so a same-origin check on admin POSTs lets the fuzzed bodies through. */
const appOrigin = () => new URL(config().PUBLIC_URL).origin;

sweepTable('admin');

let world: SweepWorld;
beforeAll(async () => {
  world = await seedSweepWorld();
});

describe(
  'admin forms answer generated bad input with a 4xx and store nothing',
  { timeout: 60_000 },
  () => {
    const form = (
      fields: fc.Arbitrary<[string, string][]>,
      headers: () => Record<string, string>,
    ) =>
      fc.record({
        method: fc.constant('POST'),
        query: fc.constant(''),
        contentType: fc.constant('application/x-www-form-urlencoded'),
        body: fields.map(formBody),
        headers: fc.constant(null).map(headers),
      }) satisfies fc.Arbitrary<FuzzRequest>;

    it('sign-in (POST /admin-panel/authorize) with wrong credentials', () =>
      fuzz(
        route('/admin-panel/authorize'),
        world.samples,
        form(
          fc
            .tuple(
              fc.oneof(
                junk,
                fc.constant(null).map(() => world.admin.userName),
              ),
              junk.filter((password) => password !== world.admin.password),
            )
            .map(([userName, password]): [string, string][] => [
              ['userName', userName],
              ['password', password],
            ]),
          () => ({ Origin: appOrigin() }),
        ),
      ));

    it('Content Automations (POST /admin-panel/content-automations) with an admin session', () =>
      fuzz(
        route('/admin-panel/content-automations'),
        world.samples,
        form(
          fc.oneof(
            junk
              .filter((intent) => !['add-stream', 'import', 'clear'].includes(intent))
              .map((intent): [string, string][] => [['intent', intent]]),
            fc
              .tuple(
                fc.oneof(fc.constantFrom('', '   ', 'n'.repeat(101)), junk),
                fc.oneof(
                  junk.filter((url) => !/^https?:\/\/\S/i.test(url.trim())),
                  fc.constantFrom(
                    'ftp://example.org/feed',
                    'javascript:alert(1)',
                    'file:///etc/passwd',
                    'http://',
                  ),
                ),
              )
              .map(([name, url]): [string, string][] => [
                ['intent', 'add-stream'],
                ['streamName', name],
                ['streamUrl', url],
              ]),
            // A good feed URL under a name with unreadable characters (the job would store it).
            unreadable.map((name): [string, string][] => [
              ['intent', 'add-stream'],
              ['streamName', `Sweep ${name}`],
              ['streamUrl', 'https://feeds.example/rss'],
            ]),
            fc
              .tuple(
                junk.filter((confirm) => confirm !== 'yes'),
                fc.constantFrom('articles', 'streams'),
              )
              .map(([confirm, collection]): [string, string][] => [
                ['intent', 'clear'],
                ['confirm', confirm],
                ['collection', collection],
              ]),
            // A junk choice names no saved scoring prompt or gpt model: nothing is promoted.
            fc.tuple(junk, junk, junk).map(([promptId, modelId, revision]): [string, string][] => [
              ['intent', 'promote-scoring'],
              ['promptId', promptId],
              ['modelId', modelId],
              ['revision', revision],
            ]),
            junk
              .filter((collection) => !['articles', 'streams'].includes(collection))
              .map((collection): [string, string][] => [
                ['intent', 'clear'],
                ['confirm', 'yes'],
                ['collection', collection],
              ]),
          ),
          () => ({ Cookie: world.admin.cookie, Origin: appOrigin() }),
        ),
        undefined,
        // An id longer than any stored key (a 500 once): it names no model, like any unknown id.
        [
          {
            method: 'POST',
            query: '',
            contentType: 'application/x-www-form-urlencoded',
            body: formBody([
              ['intent', 'promote-scoring'],
              ['promptId', '\u0000'],
              ['modelId', 'x'.repeat(3000)],
              ['revision', ''],
            ]),
            headers: { Cookie: world.admin.cookie, Origin: appOrigin() },
          },
        ],
      ));

    it('Experiments (POST /admin-panel/experiments) with an admin session', () =>
      fuzz(
        route('/admin-panel/experiments'),
        world.samples,
        fc.record({
          method: fc.constant('POST'),
          query: fc.constantFrom(
            '',
            '?process=descriptor-experiments&implementation=score-articles-per-descriptor',
            '?process=descriptor-experiments&implementation=chaining-per-descriptor',
            `?process=${'p'.repeat(300)}`,
          ),
          contentType: fc.constant('application/x-www-form-urlencoded'),
          body: fc
            .oneof(
              // A run naming no dataset, model or prompt of ours: the form's messages.
              fc
                .tuple(junk, junk, junk, junk, junk, junk)
                .map(([name, dataset, model, prompt, limit, step]): [string, string][] => [
                  ['intent', 'save'],
                  ['name', name],
                  ['dataset', dataset],
                  ['expGptModelId', model],
                  ['expPromptId', prompt],
                  ['articleLimit', limit],
                  ['threshold', limit],
                  ['stepCount', '1'],
                  ['steps.0.expImplementationId', step],
                ]),
              // Actions on a run or a prompt that does not exist.
              fc
                .tuple(
                  fc.constantFrom(
                    'execute',
                    'duplicate',
                    'promote',
                    'duplicate-prompt',
                    'remove-prompt',
                  ),
                  junk,
                )
                .map(([intent, id]): [string, string][] => [
                  ['intent', intent],
                  ['id', id],
                ]),
              fc
                .tuple(fc.constantFrom('', '   '), junk)
                .map(([title, prompt]): [string, string][] => [
                  ['intent', 'add-prompt'],
                  ['title', title],
                  ['prompt', prompt],
                ]),
              junk
                .filter((intent) => !intent.includes('-step'))
                .map((intent): [string, string][] => [['intent', intent]]),
            )
            .map(formBody),
          headers: fc
            .constant(null)
            .map(() => ({ Cookie: world.admin.cookie, Origin: appOrigin() })),
        }) satisfies fc.Arbitrary<FuzzRequest>,
      ));
  },
);
