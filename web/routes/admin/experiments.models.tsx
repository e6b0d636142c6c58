// AI models for experiments: every model record ('provider - model', by provider then model) and a
// form that adds one, for instance an OpenAI-compatible server (Ollama, vLLM) with its base URL.
// Keys are never typed here or stored: they come from the environment (docs/operations.md).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as Ai from '#core/ai';
import { VisibleError } from '#core/common';
import { Toast } from '#web/components/toast';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { refusal } from '#web/lib/refusal.server';

export const meta: MetaFunction = () => [{ title: 'AI models · Cluefeed admin' }];
export const headers = privatePageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const models = await Ai.list();
  return {
    models: models.map((model) => ({
      id: model.id,
      name: Ai.displayName(model),
      modelType: model.modelType,
      baseUrl: model.baseUrl ?? '',
    })),
    providers: [...Ai.AI_PROVIDERS],
    types: [...Ai.AI_MODEL_TYPES],
  };
}

type Typed = { provider: string; model: string; modelType: string; baseUrl: string };

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  let typed: Typed = { provider: '', model: '', modelType: '', baseUrl: '' };
  try {
    const form = await readForm(request);
    const text = (name: string) => String(form.get(name) ?? '').slice(0, 2_000);
    typed = {
      provider: text('provider'),
      model: text('model'),
      modelType: text('modelType'),
      baseUrl: text('baseUrl'),
    };
    if (form.get('intent') !== 'add') {
      throw new VisibleError('request.unknown_intent', 'This action is not known', 400);
    }
    const model = await Ai.create({
      provider: typed.provider as Ai.AiModel['provider'],
      model: typed.model,
      modelType: typed.modelType as Ai.AiModel['modelType'],
      ...(typed.baseUrl.trim() && { baseUrl: typed.baseUrl.trim() }),
    });
    return { toast: `The AI model ${Ai.displayName(model)} was added`, at: Date.now() };
  } catch (error) {
    return refusal(error, { typed });
  }
}

export default function AiModels() {
  const { models, providers, types } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const refused = answer && 'error' in answer ? answer : undefined;
  const typed = refused?.typed;
  return (
    <section className="admin-page">
      <p>
        <Link to="/admin-panel/experiments">Back to Experiments</Link>
      </p>
      <h1>AI models</h1>
      <p>
        Runs and production choose from these models. A key is never stored here: OpenAI models use
        OPENAI_API_KEY and OpenAI-compatible servers OPENAI_COMPATIBLE_API_KEY from the environment.
      </p>
      {answer && 'toast' in answer && <Toast message={answer.toast} stamp={answer.at} />}
      <Form method="post" className="admin-form" aria-labelledby="add-model-title">
        <h2 id="add-model-title">Add a model</h2>
        {refused && (
          <p role="alert" className="error-box">
            {refused.error}
          </p>
        )}
        <label htmlFor="model-provider">Provider</label>
        <select
          id="model-provider"
          name="provider"
          required
          defaultValue={typed?.provider || 'openai-compatible'}
        >
          {providers.map((provider) => (
            <option key={provider} value={provider}>
              {provider}
            </option>
          ))}
        </select>
        <label htmlFor="model-name">Model name</label>
        <input
          id="model-name"
          name="model"
          required
          maxLength={200}
          placeholder="llama3.1:8b"
          defaultValue={typed?.model}
        />
        <label htmlFor="model-type">Model type</label>
        <select id="model-type" name="modelType" required defaultValue={typed?.modelType || 'gpt'}>
          {types.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <label htmlFor="model-base-url">Base URL (OpenAI-compatible servers only)</label>
        <input
          id="model-base-url"
          name="baseUrl"
          type="url"
          placeholder="http://127.0.0.1:11434/v1"
          defaultValue={typed?.baseUrl}
        />
        <button type="submit" name="intent" value="add" disabled={busy}>
          Add model
        </button>
      </Form>
      <h2>Models</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Type</th>
              <th scope="col">Base URL</th>
            </tr>
          </thead>
          <tbody>
            {models.map((model) => (
              <tr key={model.id}>
                <td>{model.name}</td>
                <td>{model.modelType}</td>
                <td>{model.baseUrl || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
