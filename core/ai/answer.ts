// Reading a model's structured answer: JSON first, then the task's schema. Anything else is an
// AiBadAnswer carrying the raw text, so a job can record what the model said and retry later.
import * as v from 'valibot';
import { AiBadAnswer } from './errors';
import type { AiTask } from './types';

export function readAnswer<I, O>(task: AiTask<I, O>, raw: string): O {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (cause) {
    throw new AiBadAnswer(`The ${task.name} answer is not JSON`, raw, { cause });
  }
  const result = v.safeParse(task.answer, json);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue ? (v.getDotPath(issue) ?? 'answer') : 'answer';
    throw new AiBadAnswer(
      `The ${task.name} answer does not match its schema at ${where}: ${issue?.message ?? 'invalid'}`,
      raw,
      { cause: result.issues },
    );
  }
  return result.output;
}
