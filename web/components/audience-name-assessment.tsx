// The Content Automations page's 'Audience name assessment': an admin tries an audience name
// after a sentence starter and sees the model's score (with the spec's rank), reasoning,
// suggestions and raw answer, without leaving the page.
import { useFetcher } from '@remix-run/react';
import type { AssessmentResult } from '#web/routes/admin/audience-name-assessment';

export const ASSESSMENT_PATH = '/admin-panel/audience-name-assessment';
const DEFAULT_PREFIX = 'I am one of those who';

export function AudienceNameAssessment({ disabled }: { disabled: boolean }) {
  const fetcher = useFetcher<AssessmentResult>();
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const assessing = fetcher.state !== 'idle';

  return (
    <fetcher.Form
      method="post"
      action={ASSESSMENT_PATH}
      className="automation"
      aria-labelledby="assessment-heading"
    >
      <h2 id="assessment-heading">Audience name assessment</h2>
      <label htmlFor="assessment-prefix">Prefix</label>
      <input id="assessment-prefix" name="prefix" defaultValue={DEFAULT_PREFIX} maxLength={200} />
      <label htmlFor="assessment-audience-name">Audience name</label>
      <input id="assessment-audience-name" name="audienceName" required maxLength={300} />
      <button type="submit" className="button" disabled={disabled || assessing}>
        {assessing ? 'Assessing...' : 'Assess audience name'}
      </button>
      {result && 'error' in result && (
        <div className="error-box" role="alert">
          {result.error}
        </div>
      )}
      <div role="status" aria-live="polite" className="assessment-result">
        {result && 'score' in result && (
          <>
            <p>
              Score: <strong>{result.score}</strong> (rank {result.rank})
            </p>
            <p>Reasoning: {result.reasoning}</p>
            <p id="assessment-suggestions">Suggestions:</p>
            {result.suggestions.length > 0 ? (
              <ul aria-labelledby="assessment-suggestions">
                {result.suggestions.map((suggestion) => (
                  <li key={suggestion}>{suggestion}</li>
                ))}
              </ul>
            ) : (
              <p>None</p>
            )}
            <p id="assessment-raw">Raw:</p>
            <pre aria-labelledby="assessment-raw" className="assessment-result__raw">
              {result.raw}
            </pre>
          </>
        )}
      </div>
    </fetcher.Form>
  );
}
