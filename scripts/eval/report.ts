// npm run eval:metrics -- LABELS.jsonl OUT.jsonl
// Prints mean group AUC, MRR, nDCG@5/@10, precision@10 and relevant share@10 of an eval:relevance output against labels
// ({"id", "relevant": {candidateId: gain 0..3}} per line; unlabelled candidates have gain 0).
import { readFile } from 'node:fs/promises';
import { summarise, type Gains, type Scores } from './metrics';

function lines<T>(text: string, file: string): T[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw new Error(`${file}:${number}: not valid JSON`);
      }
    });
}

async function main(): Promise<number> {
  const [labelsFile, outputFile] = process.argv.slice(2);
  if (!labelsFile || !outputFile) {
    console.error('Usage: npm run eval:metrics -- LABELS.jsonl OUT.jsonl');
    return 2;
  }
  const labels = lines<{ id: string; relevant: Gains }>(
    await readFile(labelsFile, 'utf8'),
    labelsFile,
  );
  const outputs = lines<{ id: string; scores: Scores }>(
    await readFile(outputFile, 'utf8'),
    outputFile,
  );
  const summary = summarise(labels, outputs);
  const f = (value: number) => value.toFixed(3);
  console.log(
    [
      `groups scored: ${summary.groups} of ${labels.length} labelled`,
      `mean group AUC: ${f(summary.auc)} (${summary.counted.auc} groups with relevant and irrelevant candidates)`,
      `MRR:            ${f(summary.mrr)}`,
      `nDCG@5:         ${f(summary.ndcg5)}`,
      `nDCG@10:        ${f(summary.ndcg10)} (${summary.counted.ndcg} groups with a relevant candidate)`,
      `precision@10:   ${f(summary.precision10)} (relevant stories in each reader's top 10, over 10 or the group's size if smaller)`,
      `share@10:       ${f(summary.share10)} (relevant stories in each reader's top 10, over min(10, their relevant stories))`,
      ...(summary.missing.length ? [`not in both files: ${summary.missing.join(', ')}`] : []),
    ].join('\n'),
  );
  return summary.groups > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
