// What a refused core call told the user: it must be a VisibleError, with its message and status.
import { expect } from 'vitest';

export async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { name?: string; message: string; status: number } | undefined;
  expect(error?.name, 'a VisibleError').toBe('VisibleError');
  return { message: error!.message, status: error!.status };
}
