// npm run eval:stories
// How right the story builder's membership rule is on labelled pairs, for each set: the one the
// threshold was picked on (core/stories/pairs.json) and the held-out one nobody tuned to
// (core/stories/held-out-pairs.json). For each: precision and recall at the threshold in use, a
// sweep of thresholds around it, and the pairs it gets wrong. Pure: no table, no network.
import * as Stories from '#core/stories';

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

for (const set of ['tuning', 'held-out'] as const) {
  const pairs = await Stories.scoredPairs(set);
  const chosen = Stories.qualityAt(pairs);
  const same = pairs.filter((pair) => pair.sameEvent).length;
  console.log(
    `\n== ${set}: ${pairs.length} labelled pairs, ${same} same event from another source, ${pairs.length - same} same topic, another event`,
  );
  console.log(
    `Window ${Stories.STORY_WINDOW_HOURS} h, threshold ${chosen.threshold}: precision ${percent(chosen.precision)}, recall ${percent(chosen.recall)}`,
  );
  console.log('\nthreshold  precision  recall');
  for (let step = -4; step <= 4; step++) {
    const threshold = Math.round((Stories.SAME_EVENT + step * 0.03) * 100) / 100;
    const { precision, recall } = Stories.qualityAt(pairs, threshold);
    console.log(
      `${threshold.toFixed(2).padStart(9)}  ${percent(precision).padStart(9)}  ${percent(recall).padStart(6)}`,
    );
  }
  const wrong = pairs.filter(
    (pair) => pair.sameEvent !== (pair.inWindow && pair.similarity >= Stories.SAME_EVENT),
  );
  console.log(`\nPairs judged wrong at ${Stories.SAME_EVENT}: ${wrong.length}`);
  for (const pair of wrong) {
    console.log(
      `  ${pair.sameEvent ? 'missed ' : 'merged '} ${pair.a} + ${pair.b} (cosine ${pair.similarity.toFixed(3)}${pair.inWindow ? '' : ', outside the window'})`,
    );
  }
}
