import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cyclesIn, importsOf } from './core-cycles';

const roots: string[] = [];

/** A core/ of its own: path -> source. */
function core(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'core-cycles-'));
  roots.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the core import-cycle check', () => {
  it('finds a cycle between two concepts through their indexes', () => {
    const root = core({
      'users/index.ts': "import * as Jobs from '#core/jobs';\nexport const a = Jobs;\n",
      'jobs/index.ts': "export { run } from './run';\n",
      'jobs/run.ts': "import { a } from '#core/users';\nexport const run = () => a;\n",
    });
    expect(cyclesIn(root)).toEqual([
      ['jobs/index.ts', 'jobs/run.ts', 'users/index.ts', 'jobs/index.ts'],
    ]);
  });

  it('counts a lazy import(), so laziness cannot hide a cycle', () => {
    const root = core({
      'prompts/index.ts': "export const p = async () => (await import('#core/scoring')).s;\n",
      'scoring/index.ts': "import * as Prompts from '#core/prompts';\nexport const s = Prompts;\n",
    });
    expect(cyclesIn(root)).toHaveLength(1);
  });

  it('leaves out type-only imports and test files, which never run in the app', () => {
    const root = core({
      'a/index.ts': "import type { B } from '#core/b';\nexport type A = B;\n",
      'b/index.ts':
        "import { type A } from '#core/a';\nexport type { A } from '#core/a';\nexport type B = A | 1;\n",
      'b/b.test.ts': "import * as A from '#core/a';\n",
    });
    expect(cyclesIn(root)).toEqual([]);
  });

  it('reads static, re-exported and lazy imports, and an import kept for its effect', () => {
    expect(
      importsOf(
        "import x from 'x';\nimport './effect';\nexport * from './all';\nconst l = () => import('#core/lazy');\nimport type { T } from 't';\n",
      ),
    ).toEqual(['x', './effect', './all', '#core/lazy']);
  });

  it('fails the command (npm run checks) on a cycle and passes on this core', () => {
    const root = core({
      'a/index.ts': "import '#core/b';\n",
      'b/index.ts': "import '#core/a';\n",
    });
    const run = (dir: string) => {
      try {
        execFileSync('npx', ['tsx', 'scripts/core-cycles.ts', dir], { stdio: 'pipe' });
        return { code: 0, stderr: '' };
      } catch (error) {
        const failed = error as { status: number; stderr: Buffer };
        return { code: failed.status, stderr: failed.stderr.toString() };
      }
    };
    expect(run(root)).toEqual({
      code: 1,
      stderr: 'Import cycle in core: a/index.ts -> b/index.ts -> a/index.ts\n',
    });
    expect(run('core')).toEqual({ code: 0, stderr: '' });
  }, 60_000);
});
