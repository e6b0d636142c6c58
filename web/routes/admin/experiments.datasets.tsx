// Experiment datasets: the frozen snapshots runs read, newest first, and a form that freezes a new
// one from the newest articles (a job: it reads many articles and scores). Works without
// JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { VisibleError } from '#core/common';
import * as Experiments from '#core/experiments';
import * as Jobs from '#core/jobs';
import { Toast } from '#web/components/toast';
import { When } from '#web/components/when';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { refusal } from '#web/lib/refusal.server';

export const meta: MetaFunction = () => [{ title: 'Experiment datasets · Cluefeed admin' }];
export const headers = privatePageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {
    datasets: Experiments.datasetsOnce(await Experiments.datasets()).map((dataset) => ({
      ...dataset,
      groupLabel: Experiments.GROUP_WORDS[dataset.group].label,
    })),
    limit: Experiments.DATASET_LIMITS.articles,
    groups: Experiments.DATASET_GROUPS.map((group) => ({
      group,
      ...Experiments.GROUP_WORDS[group],
    })),
  };
}

type Typed = { name: string; group: string; articles: string };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  let typed: Typed = { name: '', group: '', articles: '' };
  try {
    const form = await readForm(request);
    const text = (name: string) => String(form.get(name) ?? '').slice(0, 1_000);
    typed = { name: text('name'), group: text('group'), articles: text('articles') };
    if (form.get('intent') !== 'freeze') {
      throw new VisibleError('request.unknown_intent', 'This action is not known', 400);
    }
    const articles = typed.articles.trim() === '' ? undefined : Number(typed.articles);
    await Jobs.enqueue(
      Experiments.freezeDatasetJob,
      { name: typed.name, group: typed.group as Experiments.DatasetGroup, articles },
      admin.id,
    );
    return { toast: `Freezing the dataset ${typed.name.trim()}`, at: Date.now() };
  } catch (error) {
    return refusal(error, { typed });
  }
}

export default function ExperimentDatasets() {
  const { datasets, limit, groups } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const refused = answer && 'error' in answer ? answer : undefined;
  const typed = refused?.typed;
  return (
    <section className="admin-page">
      <p>
        <Link to="/admin-panel/experiments">Back to Experiments</Link>
      </p>
      <h1>Experiment datasets</h1>
      <p>
        A dataset is frozen: runs read its copy of the articles, clues and scores, so a run gives
        the same output whenever it runs, whatever changes afterwards.
      </p>
      {answer && 'toast' in answer && <Toast message={answer.toast} stamp={answer.at} />}
      <Form method="post" className="admin-form" aria-labelledby="freeze-title">
        <h2 id="freeze-title">Freeze a dataset</h2>
        {refused && (
          <p role="alert" className="error-box">
            {refused.error}
          </p>
        )}
        <label htmlFor="dataset-name">Name</label>
        <input id="dataset-name" name="name" required maxLength={200} defaultValue={typed?.name} />
        <label htmlFor="dataset-group">Group</label>
        <select id="dataset-group" name="group" required defaultValue={typed?.group ?? ''}>
          <option value="" disabled>
            Choose a group
          </option>
          {groups.map(({ group, label }) => (
            <option key={group} value={group}>
              {label}
            </option>
          ))}
        </select>
        <dl className="dataset-groups">
          {groups.map(({ group, label, holds }) => (
            <div key={group}>
              <dt>
                {label} <span className="dataset-group__code">({group})</span>
              </dt>
              <dd>{holds}</dd>
            </div>
          ))}
        </dl>
        <label htmlFor="dataset-articles">Newest articles (1 to {limit})</label>
        <input
          id="dataset-articles"
          name="articles"
          type="number"
          min={1}
          max={limit}
          defaultValue={typed?.articles || '100'}
        />
        <button type="submit" name="intent" value="freeze" className="button" disabled={busy}>
          Freeze dataset
        </button>
      </Form>
      <h2>Datasets</h2>
      {datasets.length === 0 ? (
        <p>No datasets yet. The first scoring run after an import freezes one of each group.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Group</th>
                <th scope="col">Articles</th>
                <th scope="col">Audiences</th>
                <th scope="col">Readers</th>
                <th scope="col">Stories</th>
                <th scope="col">Scores</th>
                <th scope="col">Frozen</th>
              </tr>
            </thead>
            <tbody>
              {datasets.map((dataset) => (
                <tr key={dataset.id}>
                  <td>{dataset.name}</td>
                  <td>{dataset.groupLabel}</td>
                  <td>{dataset.articles}</td>
                  <td>{dataset.descriptors}</td>
                  <td>{dataset.users}</td>
                  <td>{dataset.stories}</td>
                  <td>{dataset.scores}</td>
                  <td>
                    <When iso={dataset.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
