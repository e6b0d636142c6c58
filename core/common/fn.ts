// A public core operation validates its input before it runs: fn(schema, impl), or parse() where
// an operation takes more than one argument. Invalid input is a 400 VisibleError, never a crash.
import * as v from 'valibot';
import { VisibleError } from './visible-error';

export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) {
    throw new VisibleError('input.invalid', result.issues[0]?.message ?? 'Invalid input', 400);
  }
  return result.output;
}

export function fn<S extends v.GenericSchema, R>(
  schema: S,
  impl: (input: v.InferOutput<S>) => Promise<R>,
): ((input: v.InferInput<S>) => Promise<R>) & { schema: S } {
  const run = async (input: v.InferInput<S>) => impl(parse(schema, input));
  return Object.assign(run, { schema });
}
