// The stack as `sst deploy` evaluates it, without AWS: sst.config.ts's run() with SST's globals
// (`sst`, `aws`, `$app`, `$config`) standing in as recorders, so every resource, its arguments
// and every method call (a queue's subscribe) can be checked. An output such as `table.name` is
// a reference that remembers its path (`sst.aws.Dynamo:Table.name`), never a value.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SETTING_NAMES } from '#core/config';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type StackResource = { type: string; name: string; args: unknown };
export type StackCall = { path: string; args: unknown[] };
export type Stack = { resources: StackResource[]; calls: StackCall[] };

const references = new WeakMap<object, string>();

/** The path of a recorded output (`sst.Secret:AppSecret.value`), or undefined for a plain value. */
export function referencePath(value: unknown): string | undefined {
  return typeof value === 'function' || (typeof value === 'object' && value !== null)
    ? references.get(value)
    : undefined;
}

function recorder(stack: Stack, path: string): unknown {
  const reference: object = new Proxy(function () {}, {
    get(_target, property) {
      if (property === Symbol.toPrimitive || property === 'toString' || property === 'toJSON') {
        return () => `«${path}»`;
      }
      // Not a promise, so `await` and Promise.resolve take a reference as the value it is.
      if (typeof property === 'symbol' || property === 'then') return undefined;
      // Pulumi's Output.apply: the result is another output.
      if (property === 'apply') return () => recorder(stack, `${path}.apply()`);
      return recorder(stack, `${path}.${property}`);
    },
    apply(_target, _this, args: unknown[]) {
      stack.calls.push({ path, args });
      return recorder(stack, `${path}()`);
    },
    construct(_target, [name, args]: unknown[]) {
      stack.resources.push({ type: path, name: String(name), args });
      return recorder(stack, `${path}:${String(name)}`) as object;
    },
  });
  references.set(reference, path);
  return reference;
}

/** Marks what the deploy shell set: every setting core/config reads is set, to its own name. */
export const deployShellValue = (name: string) => `deploy-proof:${name}`;

let recorded: Promise<Stack> | undefined;

/** The recorded stack of a deploy whose shell sets every setting (evaluated once per process). */
export function recordStack(): Promise<Stack> {
  recorded ??= evaluate();
  return recorded;
}

async function evaluate(): Promise<Stack> {
  const stack: Stack = { resources: [], calls: [] };
  const globals = globalThis as Record<string, unknown>;
  const standIns: Record<string, unknown> = {
    $config: (definition: unknown) => definition,
    sst: recorder(stack, 'sst'),
    aws: recorder(stack, 'aws'),
    $app: { name: 'cluefeed', stage: 'deploy-proof' },
  };
  const savedGlobals = Object.fromEntries(Object.keys(standIns).map((key) => [key, globals[key]]));
  const env = process.env as Record<string, string | undefined>;
  const savedEnv = { ...env };
  Object.assign(globals, standIns);
  for (const name of SETTING_NAMES) env[name] = deployShellValue(name);
  try {
    const config = (await import(pathToFileURL(join(root, 'sst.config.ts')).href)) as {
      default: { run: () => Promise<unknown> };
    };
    await config.default.run();
    return stack;
  } finally {
    Object.assign(globals, savedGlobals);
    for (const name of SETTING_NAMES) {
      if (savedEnv[name] === undefined) delete env[name];
      else env[name] = savedEnv[name];
    }
  }
}
