// Outbox (local SMTP sink only): the e-mails the product sent, newest first, each rendered.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { config } from '#core/config';
import { readMessages } from '#core/mail';
import { requireAdmin } from '#web/lib/admin.server';
import { notFound, privatePageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [{ title: 'Outbox · Cluefeed admin' }];
export const headers = privatePageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const dir = config().MAIL_DIR;
  if (!dir) throw notFound();
  const messages = (await readMessages(dir)).slice(0, 100);
  return {
    messages: messages.map(({ id, receivedAt, to, subject }) => ({ id, receivedAt, to, subject })),
  };
}

export default function Outbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <h1>Outbox</h1>
      <p>The e-mails the product sent through the local SMTP sink, newest first.</p>
      {messages.length === 0 && <p className="notice">No e-mails yet.</p>}
      {messages.map((message) => (
        <article key={message.id} className="outbox-message">
          <h2>{message.subject}</h2>
          <p>
            To {message.to.join(', ')} ·{' '}
            <time dateTime={message.receivedAt}>{message.receivedAt}</time>
          </p>
          <iframe
            title={`E-mail: ${message.subject}`}
            src={`/admin-panel/outbox/${encodeURIComponent(message.id)}`}
            // No scripts, no same origin; links open new tabs that leave the sandbox, so a
            // confirmation link is followed with a click.
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            loading="lazy"
          />
        </article>
      ))}
    </section>
  );
}
