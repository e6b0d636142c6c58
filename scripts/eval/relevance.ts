// npm run eval:relevance -- IN.jsonl OUT.jsonl
// Scores each line's candidates against its clues with the configured gpt model, through the AI
// port (task articleRelevance, the current 'scoring' prompt), and writes {"id", "scores"} lines,
// so anyone can measure ranking quality on their own labelled data (npm run eval:metrics).
//
// Where the model and prompt come from (docs/decisions/0014-clue-assessment.md):
// - DYNAMODB_ENDPOINT or TABLE_NAME set: from that table, as jobs do (Ai.configured, Prompts.current),
//   e.g. against `npm start`'s DynamoDB Local or, under `sst shell`, a deployed stage.
//   The local model rates with the table's corpus snapshot (refresh-corpus), as jobs do.
// - Neither set: nothing is started. AI_GPT_MODEL (default local/cluefeed-bm25) must name the local
//   model or an OpenAI model (OPENAI_API_KEY), and the scoring prompt is the built-in default.
//   The local model's corpus is learned from the input's candidates (each id once): what the
//   product would have imported.
//   An OpenAI-compatible server needs its AI model record (its base URL), so it needs a table.
//   EVAL_CONCURRENCY (default 4) bounds parallel model calls.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import { mapPool } from '#core/common';
import * as Prompts from '#core/prompts';

const Candidate = v.object({
  id: v.pipe(v.string(), v.nonEmpty('a candidate needs an id')),
  title: v.string('a candidate needs a title'),
  summary: v.optional(v.string(), ''),
  category: v.optional(v.string()),
});
const Group = v.object({
  id: v.pipe(v.string(), v.nonEmpty('a line needs an id')),
  clues: v.pipe(v.array(v.string()), v.minLength(1, 'a line needs at least one clue')),
  candidates: v.array(Candidate),
});
type Group = v.InferOutput<typeof Group>;

export function readGroups(text: string, file: string): Group[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new Error(`${file}:${number}: not valid JSON`);
      }
      const result = v.safeParse(Group, json);
      if (!result.success) {
        const issue = result.issues[0]!;
        throw new Error(`${file}:${number}: ${v.getDotPath(issue) ?? 'line'}: ${issue.message}`);
      }
      return result.output;
    });
}

type Source = { model: Ai.AiModelRef; prompt: { id: string; prompt: string }; port: Ai.Ai };

/** The local provider with the corpus the input's candidates make. */
async function localPort(groups: Group[]): Promise<Ai.Ai> {
  const candidates = new Map(groups.flatMap((group) => group.candidates.map((c) => [c.id, c])));
  const corpus = Ai.buildCorpus([...candidates.values()], await Ai.wordVectors());
  return Ai.localProvider({ corpus: async () => corpus });
}

async function source(groups: Group[]): Promise<Source> {
  if (process.env.DYNAMODB_ENDPOINT || process.env.TABLE_NAME) {
    const [model, prompt] = await Promise.all([Ai.configured('gpt'), Prompts.current('scoring')]);
    return { model, prompt, port: Ai.ai() };
  }
  const setting = process.env.AI_GPT_MODEL ?? 'local/cluefeed-bm25';
  const [provider = '', model = ''] = [
    setting.slice(0, setting.indexOf('/')),
    setting.slice(setting.indexOf('/') + 1),
  ];
  if (provider === 'openai-compatible') {
    throw new Error(
      'An OpenAI-compatible model needs its AI model record (its base URL): set DYNAMODB_ENDPOINT ' +
        'and TABLE_NAME to the table that holds it',
    );
  }
  if (provider !== 'local' && provider !== 'openai') {
    throw new Error(`AI_GPT_MODEL must look like local/<model> or openai/<model>, not ${setting}`);
  }
  if (provider === 'local' && model !== Ai.LOCAL_MODELS.gpt.model) {
    throw new Error(`The local gpt model is ${Ai.LOCAL_MODELS.gpt.model}, not ${model}`);
  }
  // The OpenAI adapter reads its key through core/config, which insists on an APP_SECRET that
  // nothing here uses (no tokens or cookies are made).
  process.env.APP_SECRET ??= randomBytes(32).toString('hex');
  const scoring = Prompts.automation('scoring')!;
  return {
    model: { id: Ai.aiModelId(provider, model), provider, model, modelType: 'gpt' },
    prompt: { id: Prompts.defaultPromptId('scoring'), prompt: scoring.defaultPrompt },
    port: provider === 'local' ? await localPort(groups) : Ai.ai(),
  };
}

async function scoreGroup(group: Group, { model, prompt, port }: Source, concurrency: number) {
  const scores = await mapPool(group.candidates, concurrency, async (candidate) => {
    const article = {
      title: candidate.title,
      summary: candidate.summary,
      category: candidate.category,
    };
    const { answer } = await port.complete({
      model,
      task: Ai.articleRelevance,
      input: { article, clues: group.clues },
      user: Prompts.render(prompt, {
        ...article,
        audience: '',
        clues: group.clues,
      }),
    });
    return [candidate.id, answer.score] as const;
  });
  return { id: group.id, scores: Object.fromEntries(scores) };
}

async function main(): Promise<number> {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('Usage: npm run eval:relevance -- IN.jsonl OUT.jsonl');
    return 2;
  }
  const groups = readGroups(await readFile(input, 'utf8'), input);
  const from = await source(groups);
  const concurrency = Number(process.env.EVAL_CONCURRENCY ?? 4) || 4;
  console.error(
    `Scoring ${groups.length} groups with ${Ai.displayName(from.model)}, prompt ${from.prompt.id}...`,
  );
  const started = performance.now();
  const lines: string[] = [];
  for (const group of groups) {
    lines.push(JSON.stringify(await scoreGroup(group, from, concurrency)));
  }
  await writeFile(output, lines.join('\n') + '\n');
  const pairs = groups.reduce((n, group) => n + group.candidates.length, 0);
  console.error(
    `Wrote ${output}: ${pairs} candidates in ${((performance.now() - started) / 1000).toFixed(2)} s`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
