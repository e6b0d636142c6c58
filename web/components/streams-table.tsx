// The Streams table of Content Automations: each feed with its state (active, paused by an
// operator, or waiting after repeated failures), its last import and problem, and its actions:
// pause or resume (one click), and remove, which first asks (`?remove={id}` opens the question
// in a modal that also works without JavaScript).
import { Form, Link, useNavigation } from '@remix-run/react';
import { AdminModal } from './admin-modal';
import { When } from './when';

type Stream = {
  id: string;
  name: string;
  url: string;
  lastImportAt?: string;
  lastError?: string;
  /** Only while it is in the future: the stream waits after repeated failures. */
  backoffUntil?: string;
  pausedAt?: string;
};

export function StreamsTable({ streams, path }: { streams: Stream[]; path: string }) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <>
      <h2 id="streams-heading">Streams ({streams.length})</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table" aria-labelledby="streams-heading">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">URL</th>
              <th scope="col">State</th>
              <th scope="col">Last import</th>
              <th scope="col">Problem</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {streams.map((stream) => (
              <tr key={stream.id}>
                <td>{stream.name}</td>
                <td className="admin-table__url">{stream.url}</td>
                <td>
                  <StreamState stream={stream} />
                </td>
                <td>
                  <When iso={stream.lastImportAt} />
                </td>
                <td>{stream.lastError ?? ''}</td>
                <td>
                  <Form method="post" action={path} className="user-actions">
                    <input type="hidden" name="streamId" value={stream.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={stream.pausedAt ? 'resume-stream' : 'pause-stream'}
                      className="button button--ghost"
                      aria-label={`${stream.pausedAt ? 'Resume' : 'Pause'} ${stream.name}`}
                      disabled={submitting}
                    >
                      {stream.pausedAt ? 'Resume' : 'Pause'}
                    </button>
                    <Link
                      to={`${path}?remove=${stream.id}`}
                      aria-label={`Remove ${stream.name}`}
                      preventScrollReset
                    >
                      Remove
                    </Link>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function StreamState({ stream }: { stream: Stream }) {
  if (stream.pausedAt)
    return (
      <>
        Paused since <When iso={stream.pausedAt} />
      </>
    );
  if (stream.backoffUntil)
    return (
      <>
        Waiting after repeated failures, until <When iso={stream.backoffUntil} />
      </>
    );
  return <>Active</>;
}

/** The question before a stream goes: what it means, then Remove or Cancel. */
export function RemoveStreamDialog({ stream, path }: { stream: Stream; path: string }) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <AdminModal title="Remove this stream?" closeTo={path}>
      {/* Names and URLs may be long words: they break anywhere rather than widen the dialog. */}
      <p className="admin-table__url">
        <strong>{stream.name}</strong>
        <br />
        {stream.url}
      </p>
      <p>
        Imports stop fetching this feed, and it leaves the Streams table. The articles it brought
        stay. To import it again, add it again.
      </p>
      <Form method="post" action={path} className="admin-form__actions">
        <input type="hidden" name="streamId" value={stream.id} />
        <button
          type="submit"
          name="intent"
          value="remove-stream"
          className="button button--danger"
          disabled={submitting}
        >
          Remove stream
        </button>
      </Form>
    </AdminModal>
  );
}
