// Content Automations' Production scoring card: the prompt and model production scores with, who
// promoted them and when, and the choice of another saved scoring prompt and a gpt model that can
// run here (the others are named with why not). Choosing
// asks first (`?promotePrompt=&promoteModel=` opens the question in a modal that also works
// without JavaScript); only the question's POST promotes.
import { Form, useNavigation } from '@remix-run/react';
import { formatTime } from '#web/lib/format';
import { AdminModal } from './admin-modal';
import { When } from './when';

type Named = { id: string; name: string };
type PromptChoice = { id: string; title: string; savedAt?: string };
type Production = {
  revision: number;
  prompt?: { id: string; title: string };
  model?: Named;
  promotedAt?: string;
  promotedBy?: string;
  /** Why production cannot score (a configured model that is not among the AI models). */
  problem?: string;
};
type Choices = {
  prompts: PromptChoice[];
  models: Named[];
  /** Models that cannot run here, each with why. */
  notOffered: string[];
};

const setupText = (prompt: { title: string }, model: Named) =>
  `"${prompt.title}" with ${model.name}`;

export function ProductionScoring({
  production,
  choices,
  path,
}: {
  production: Production;
  choices: Choices;
  path: string;
}) {
  return (
    <section className="automation" aria-labelledby="production-scoring-heading">
      <h2 id="production-scoring-heading">Production scoring</h2>
      <p>
        Scheduled scoring, picks, readers&apos; feeds and newsletters use the scores of this prompt
        and model. Saving or testing a prompt never changes it: only promoting does.
      </p>
      {production.prompt && production.model ? (
        <dl className="setup-facts">
          <dt>Prompt</dt>
          <dd>{production.prompt.title}</dd>
          <dt>Model</dt>
          <dd>{production.model.name}</dd>
          <dt>Promoted</dt>
          <dd>
            {production.promotedAt ? (
              <>
                <When iso={production.promotedAt} /> by {production.promotedBy ?? 'a removed admin'}
              </>
            ) : (
              'Not yet: the built-in prompt and the configured model'
            )}
          </dd>
        </dl>
      ) : (
        <p className="error-box">{production.problem}</p>
      )}
      {choices.prompts.length > 0 && choices.models.length > 0 ? (
        <Form method="get" action={path} preventScrollReset>
          {/* Radios, not a select: a title and its date wrap, where a select cuts them. */}
          <fieldset className="prompt-choices">
            <legend>Prompt to promote</legend>
            {choices.prompts.map((prompt) => (
              <label key={prompt.id} className="checkbox">
                <input
                  type="radio"
                  name="promotePrompt"
                  value={prompt.id}
                  required
                  defaultChecked={prompt.id === production.prompt?.id}
                />
                <span>
                  {prompt.title}{' '}
                  {prompt.savedAt ? `(saved ${formatTime(prompt.savedAt)})` : '(built in)'}
                </span>
              </label>
            ))}
          </fieldset>
          <label htmlFor="promoteModel">Model to promote</label>
          <select
            id="promoteModel"
            name="promoteModel"
            required
            defaultValue={production.model?.id}
          >
            {choices.models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.name}
              </option>
            ))}
          </select>
          <button type="submit" className="button">
            Promote…
          </button>
        </Form>
      ) : (
        <p>There is no saved scoring prompt or gpt model to promote yet.</p>
      )}
      {choices.notOffered.length > 0 && (
        <div className="not-offered">
          <p>Not offered, because they cannot run here:</p>
          <ul>
            {choices.notOffered.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The question before a promote: what production uses now, what it will use, what follows. */
export function PromoteDialog({
  production,
  promoting,
  path,
}: {
  production: Production;
  promoting: { prompt: PromptChoice; model: Named; same: boolean };
  path: string;
}) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <AdminModal title="Promote this scoring setup?" closeTo={path}>
      <dl className="setup-facts">
        <dt>Now</dt>
        <dd>
          {production.prompt && production.model
            ? setupText(production.prompt, production.model)
            : production.problem}
        </dd>
        <dt>Promote</dt>
        <dd>{setupText(promoting.prompt, promoting.model)}</dd>
      </dl>
      {promoting.same ? (
        <p>Production scoring already uses this prompt and model.</p>
      ) : (
        <>
          <p>
            Scheduled scoring, picks, readers&apos; feeds and newsletters will read only scores made
            with this prompt and model. Scoring the newest articles with it is queued at once; until
            it ends, picks and feeds have fewer stories.
          </p>
          <Form method="post" action={path} className="admin-form__actions">
            <input type="hidden" name="promptId" value={promoting.prompt.id} />
            <input type="hidden" name="modelId" value={promoting.model.id} />
            <input type="hidden" name="revision" value={production.revision} />
            <button
              type="submit"
              name="intent"
              value="promote-scoring"
              className="button"
              disabled={submitting}
            >
              Promote
            </button>
          </Form>
        </>
      )}
    </AdminModal>
  );
}
