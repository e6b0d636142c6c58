// Outbox: every e-mail the product queued, newest first and ten a page (or those to a recipient),
// with its delivery state from the outbox records, and the copy the local SMTP sink received,
// rendered when asked for. The mailing-list mirror's messages are rows too (ADR 0059), without a copy.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { config } from '#core/config';
import { readMessages, type StoredMessage } from '#core/mail';
import * as Outbox from '#core/outbox';
import { When } from '#web/components/when';
import { requireAdmin } from '#web/lib/admin.server';
import { notFound, privatePageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [{ title: 'Outbox · Cluefeed admin' }];
export const headers = privatePageHeaders;

const SHOWN = 100;
/** A page holds this many e-mails, so the page stays short on a phone. */
export const OUTBOX_PAGE_SIZE = 10;
/** While an e-mail is on its way the page reloads its data this often. */
const REFRESH_MS = 2_000;

type Row = {
  key: string;
  at: string;
  to: string;
  subject: string;
  state?: Pick<
    Outbox.OutboundEmail,
    'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'sentAt' | 'smtpMessageId'
  >;
  /** The sink's copy (local runtime), framed from /admin-panel/outbox/:id. */
  copyId?: string;
};

/** The page asked for by `?page=` (1 first); anything but a positive whole number is refused. */
function pageAsked(request: Request): number {
  const asked = new URL(request.url).searchParams.get('page');
  if (asked === null) return 1;
  if (!/^[1-9]\d{0,3}$/.test(asked)) {
    throw new Response('The page must be a whole number from 1.', { status: 400 });
  }
  return Number(asked);
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = pageAsked(request);
  const to = (new URL(request.url).searchParams.get('to') ?? '').trim().slice(0, 254);
  const dir = config().MAIL_DIR;
  const [emails, copies] = await Promise.all([
    Outbox.recent({ limit: SHOWN }),
    dir ? readMessages(dir, { limit: SHOWN }) : ([] as StoredMessage[]),
  ]);
  const byMessageId = new Map(copies.map((copy) => [copy.headers['message-id'], copy]));
  const rows: Row[] = emails.map((email) => ({
    key: email.id,
    at: email.createdAt,
    to: email.to,
    subject: email.subject,
    state: {
      status: email.status,
      attempts: email.attempts,
      nextAttemptAt: email.nextAttemptAt,
      lastError: email.lastError,
      sentAt: email.sentAt,
      smtpMessageId: email.smtpMessageId,
    },
    copyId: email.smtpMessageId && byMessageId.get(email.smtpMessageId)?.id,
  }));
  // Mail that reached the sink without an outbox record (sent before the outbox, or by a tool).
  const recorded = new Set(emails.map((email) => email.smtpMessageId).filter(Boolean));
  for (const copy of copies) {
    if (recorded.has(copy.headers['message-id'])) continue;
    rows.push({
      key: copy.id,
      at: copy.receivedAt,
      to: copy.to.join(', '),
      subject: copy.subject,
      copyId: copy.id,
    });
  }
  rows.sort((a, b) => b.at.localeCompare(a.at));
  // A search looks through the newest e-mails of the table and the newest copies of the sink
  // apart: a flood of newer mail in the sink does not hide the e-mail searched for.
  const shown = rows
    .filter((row) => !to || row.to.toLowerCase().includes(to.toLowerCase()))
    .slice(0, SHOWN);
  const pages = Math.max(1, Math.ceil(shown.length / OUTBOX_PAGE_SIZE));
  if (page > pages) throw notFound();
  const start = (page - 1) * OUTBOX_PAGE_SIZE;
  return {
    rows: shown.slice(start, start + OUTBOX_PAGE_SIZE),
    page,
    pages,
    to,
    sink: Boolean(dir),
  };
}

/** The Outbox's address for a page, keeping the recipient searched for. */
function pageHref(page: number, to: string) {
  const search = new URLSearchParams({
    ...(to && { to }),
    ...(page > 1 && { page: String(page) }),
  });
  return search.size ? `/admin-panel/outbox?${search}` : '/admin-panel/outbox';
}

function DeliveryState({ state }: { state: NonNullable<Row['state']> }) {
  const tries = `${state.attempts ?? 0} attempt${state.attempts === 1 ? '' : 's'}`;
  switch (state.status) {
    case 'sent':
      return (
        <>
          Sent <When iso={state.sentAt} otherwise="" /> · {tries}
        </>
      );
    case 'queued':
      return (
        <>
          Queued, next attempt <When iso={state.nextAttemptAt} otherwise="now" /> · {tries}
          {state.lastError && <> · last error: {state.lastError}</>}
        </>
      );
    case 'sending':
      return <>Sending · {tries}</>;
    case 'failed':
      return (
        <>
          Failed: {state.lastError} · {tries}
        </>
      );
    case 'cancelled':
      return <>Not sent: {state.lastError}</>;
  }
}

export default function OutboxPage() {
  const { rows, page, pages, to, sink } = useLoaderData<typeof loader>();
  const { revalidate, state } = useRevalidator();
  const onTheirWay = rows.some(
    (row) => row.state?.status === 'queued' || row.state?.status === 'sending',
  );
  useEffect(() => {
    if (!onTheirWay || state !== 'idle') return;
    const timer = setTimeout(revalidate, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [onTheirWay, state, revalidate]);
  return (
    <section className="admin-page">
      <h1>Outbox</h1>
      <p>
        Every e-mail the product queued, newest first, with its delivery state. Changes told to the
        mailing list show here too, their subject starting with “Mailing list:”.
        {sink && ' Open a sent e-mail to see the copy the local SMTP sink received.'}
      </p>
      {pages > 1 && (
        <p>
          Page {page} of {pages}
        </p>
      )}
      <Form method="get" role="search" className="user-search">
        <label htmlFor="outbox-to">Recipient</label>
        <input id="outbox-to" type="search" name="to" defaultValue={to} maxLength={254} />
        <button type="submit" className="button">
          Find
        </button>
        {to && <Link to="/admin-panel/outbox">Show all</Link>}
      </Form>
      {rows.length === 0 && (
        <p className="notice">{to ? 'No e-mails to this recipient.' : 'No e-mails yet.'}</p>
      )}
      {rows.map((row) => (
        <article key={row.key} className="outbox-message" data-status={row.state?.status}>
          <h2>{row.subject}</h2>
          <p>
            To {row.to} · <When iso={row.at} />
          </p>
          <p className="outbox-message__state">
            {row.state ? <DeliveryState state={row.state} /> : 'Sent outside the outbox'}
          </p>
          {row.copyId && (
            // Closed, the frame is not rendered, so its lazy copy is fetched only when opened.
            <details className="outbox-message__copy">
              <summary>Show the e-mail</summary>
              <iframe
                title={`E-mail: ${row.subject}`}
                src={`/admin-panel/outbox/${encodeURIComponent(row.copyId)}`}
                // No scripts, no same origin; links open new tabs that leave the sandbox, so a
                // confirmation link is followed with a click.
                sandbox="allow-popups allow-popups-to-escape-sandbox"
                loading="lazy"
              />
            </details>
          )}
        </article>
      ))}
      {pages > 1 && (
        <nav className="pager" aria-label="Pages">
          {page > 1 && <Link to={pageHref(page - 1, to)}>Previous page</Link>}
          {page < pages && <Link to={pageHref(page + 1, to)}>Next page</Link>}
        </nav>
      )}
    </section>
  );
}
