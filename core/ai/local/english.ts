// How common a word is in English: its rank among GloVe's 50,000 most frequent words, in the order
// word-vectors.json keeps them (most frequent first, see scripts/build-word-vectors.ts). "things"
// and "internet" rank in the first thousand and say little about a reader; a word no vocabulary
// knows is no word at all ("asdf"), or a name.
let loading: Promise<ReadonlyMap<string, number>> | undefined;

/** Word to frequency rank (1 = most frequent), read once per process from the vectors' asset. */
export function englishRanks(): Promise<ReadonlyMap<string, number>> {
  // The same JSON module vectors.ts imports: the runtime parses it once for both.
  loading ??= import('./word-vectors.json', { with: { type: 'json' } }).then(
    (module) =>
      new Map((module.default as { words: string }).words.split('\n').map((w, i) => [w, i + 1])),
  );
  return loading;
}
