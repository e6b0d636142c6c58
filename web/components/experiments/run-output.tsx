// What a successful run produced, as its kind makes it: label counts per matching entity with a
// Total, picks, clusters, texts or a vectors summary; and always items, tokens, cost (or 'cost
// unknown'), duration, and the exact prompt and model used. A chain shows each step in order.
import type { RunOutput, StepOutput, Usage } from '#core/experiments';

export const costText = (usage: Usage) =>
  usage.costUsd === null ? 'cost unknown' : `$${usage.costUsd.toFixed(4)}`;
export const durationText = (ms: number) =>
  ms < 1000
    ? `${ms} ms`
    : ms < 60_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.round(ms / 60_000)} min`;

function Counts({ step }: { step: StepOutput }) {
  if (step.resultsPerMatchingEntity.length === 0) return null;
  const labels = [
    ...new Set(
      step.resultsPerMatchingEntity.flatMap((result) =>
        Object.keys(result.groupByMetricPerMatchingEntity).filter((label) => label !== 'Total'),
      ),
    ),
    'Total',
  ];
  return (
    <div className="table-scroll" tabIndex={0}>
      <table className="admin-table">
        <caption>Labels per matching entity</caption>
        <thead>
          <tr>
            <th scope="col">Matching entity</th>
            {labels.map((label) => (
              <th scope="col" key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {step.resultsPerMatchingEntity.map((result) => (
            <tr key={result.matchingEntity}>
              <th scope="row">{result.matchingEntity}</th>
              {labels.map((label) => (
                <td key={label}>{result.groupByMetricPerMatchingEntity[label] ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Produced({ step }: { step: StepOutput }) {
  return (
    <>
      <Counts step={step} />
      {step.picks?.map((pick) => (
        <div key={pick.matchingEntity}>
          <h4>Picks for {pick.matchingEntity}</h4>
          {pick.header && <p>{pick.header}</p>}
          <ol>
            {pick.picks.map((item) => (
              <li key={item.articleId}>
                {item.title} ({item.score})
              </li>
            ))}
          </ol>
        </div>
      ))}
      {step.clusters && (
        <>
          <h4>Clusters ({step.clusters.length})</h4>
          <ul>
            {step.clusters.map((cluster) => (
              <li key={cluster.storyId}>
                {cluster.title}: {cluster.articles.length} articles
              </li>
            ))}
          </ul>
        </>
      )}
      {step.texts?.map((text) => (
        <details key={text.storyId}>
          <summary>{text.title}</summary>
          <p className="run-text">{text.text}</p>
        </details>
      ))}
      {step.vectors && (
        <p>
          Vectors: {step.vectors.vectors} of {step.vectors.dimensions} dimensions, mean similarity{' '}
          {step.vectors.meanSimilarity.toFixed(3)}
        </p>
      )}
    </>
  );
}

function Facts({ step, durationMs }: { step: StepOutput; durationMs?: number }) {
  const { usage } = step;
  return (
    <dl className="setup-facts">
      <dt>Model</dt>
      <dd>{step.model.name}</dd>
      <dt>Items</dt>
      <dd>{step.items}</dd>
      {(step.failed ?? 0) > 0 && (
        <>
          <dt>Not scored</dt>
          <dd>{step.failed} pairs the model could not score (left out of the counts)</dd>
        </>
      )}
      <dt>Tokens</dt>
      <dd>
        {usage.inputTokens} in, {usage.outputTokens} out ({usage.calls} calls)
      </dd>
      <dt>Cost</dt>
      <dd>{costText(usage)}</dd>
      {durationMs !== undefined && (
        <>
          <dt>Duration</dt>
          <dd>{durationText(durationMs)}</dd>
        </>
      )}
      {step.prompt && (
        <>
          <dt>Prompt</dt>
          <dd>
            {step.prompt.title}
            <pre className="run-prompt">{step.prompt.prompt}</pre>
          </dd>
        </>
      )}
    </dl>
  );
}

export function RunOutputView({ output }: { output: RunOutput }) {
  return (
    <section className="run-output" aria-label="Output">
      <h3>Output</h3>
      <p>
        Dataset {output.dataset.name} ({output.dataset.group})
      </p>
      {output.steps ? (
        <>
          <p>Duration {durationText(output.durationMs)}</p>
          {output.steps.map((step, index) => (
            <section key={index} className="run-step-output">
              <h4>
                Step {index + 1}: {step.implementation}
              </h4>
              <Facts step={step} />
              <Produced step={step} />
            </section>
          ))}
        </>
      ) : (
        <>
          <Facts step={output} durationMs={output.durationMs} />
          <Produced step={output} />
        </>
      )}
    </section>
  );
}
