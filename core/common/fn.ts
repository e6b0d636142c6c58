// A public core operation validates its input before it runs: fn(schema, impl).
import * as v from 'valibot';
import { VisibleError } from './visible-error';

export function fn<S extends v.GenericSchema, R>(
  schema: S,
  impl: (input: v.InferOutput<S>) => Promise<R>,
): ((input: v.InferInput<S>) => Promise<R>) & { schema: S } {
  const run = async (input: v.InferInput<S>) => {
    const result = v.safeParse(schema, input);
    if (!result.success) {
      throw new VisibleError('input.invalid', result.issues[0]?.message ?? 'Invalid input', 400);
    }
    return impl(result.output);
  };
  return Object.assign(run, { schema });
}
