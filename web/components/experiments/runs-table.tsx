// The 'Implementation Runs' tab: refresh, 'Add Implementation Run', the runs 10 a page (name and
// id, status badge, when executed, open), and the choice of two or more successful runs to
// compare (a GET form to the comparison page).
import { Form, Link } from '@remix-run/react';
import { When } from '#web/components/when';
import { COMPARE_PATH, experimentsHref, type ScreenState } from '#web/lib/experiment-paths';
import type { RunRow } from '#web/lib/experiment-views';
import { RunStatus } from './active-experiments';

export function RunsTools({ state }: { state: ScreenState }) {
  const chosen = Boolean(state.implementation);
  return (
    <div className="user-tools">
      <Form method="get" preventScrollReset>
        {state.process && <input type="hidden" name="process" value={state.process} />}
        {state.implementation && (
          <input type="hidden" name="implementation" value={state.implementation} />
        )}
        {state.page && state.page > 1 && (
          <input type="hidden" name="page" value={String(state.page)} />
        )}
        <button type="submit" className="button" disabled={!chosen}>
          Refresh
        </button>
      </Form>
      {chosen ? (
        <Link to={experimentsHref(state, { modal: 'add' })} className="button" preventScrollReset>
          Add Implementation Run
        </Link>
      ) : (
        <button type="button" className="button" disabled>
          Add Implementation Run
        </button>
      )}
    </div>
  );
}

export function RunsTable({
  state,
  runs,
  more,
}: {
  state: ScreenState;
  runs: RunRow[];
  more: boolean;
}) {
  const page = state.page ?? 1;
  const comparable = runs.filter((run) => run.status === 'Success').length;
  return (
    <>
      {runs.length === 0 ? (
        <p className="notice">No runs of this implementation yet.</p>
      ) : (
        <Form method="get" action={COMPARE_PATH} className="runs-form">
          <div className="table-scroll" tabIndex={0}>
            <table className="admin-table">
              <caption className="visually-hidden">Implementation runs</caption>
              <thead>
                <tr>
                  <th scope="col">Compare</th>
                  <th scope="col">Name/Id</th>
                  <th scope="col">Status</th>
                  <th scope="col">Executed at</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.id}>
                    <td>
                      {run.status === 'Success' && (
                        <input
                          type="checkbox"
                          name="runs"
                          value={run.id}
                          aria-label={`Compare ${run.name}`}
                        />
                      )}
                    </td>
                    <td>
                      {run.name}
                      <br />
                      <small className="run-id">{run.id}</small>
                    </td>
                    <td>
                      <RunStatus status={run.status} />
                    </td>
                    <td>
                      <When iso={run.executedAt} otherwise="Not executed" />
                    </td>
                    <td>
                      <Link
                        to={experimentsHref(state, { run: run.id })}
                        aria-label={`Open ${run.name}`}
                        preventScrollReset
                      >
                        Open
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {comparable >= 2 && (
            <p>
              <button type="submit" className="button">
                Compare runs
              </button>{' '}
              <span className="field__hint">Choose two or more successful runs.</span>
            </p>
          )}
        </Form>
      )}
      <nav className="pager" aria-label="Pages">
        {page > 1 && <Link to={experimentsHref({ ...state, page: page - 1 })}>Previous page</Link>}
        {more && <Link to={experimentsHref({ ...state, page: page + 1 })}>Next page</Link>}
      </nav>
    </>
  );
}
