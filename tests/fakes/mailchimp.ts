// A small fake of the Mailchimp Marketing API on 127.0.0.1: just the member endpoints our adapter
// calls, with Mailchimp's auth, JSON shapes and problem answers, so tests drive the real client.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeMember = {
  id: string;
  email_address: string;
  status: string;
  tags: { id: number; name: string }[];
  merge_fields: Record<string, unknown>;
};

export type FakeRequest = { method: string; path: string; body: unknown };

export type FakeMailchimp = {
  /** Base URL to pass as the adapter's baseUrl (the API lives under /3.0). */
  url: string;
  apiKey: string;
  listId: string;
  /** Members of the list by subscriber hash. */
  members: Map<string, FakeMember>;
  requests: FakeRequest[];
  /** Answers the next request with this status and title instead of serving it. */
  failNext(status: number, title: string): void;
  stop(): Promise<void>;
};

const MEMBER_PATH = /^\/3\.0\/lists\/([^/]+)\/members\/([^/]+)(\/tags)?$/;
const STATUSES = ['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional'];

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(title);
  }
}

const hashOf = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

const notFound = () =>
  new Problem(404, 'Resource Not Found', 'The requested resource could not be found.');

function invalid(detail: string) {
  return new Problem(
    400,
    'Invalid Resource',
    `The resource submitted could not be validated. ${detail}`,
  );
}

function send(res: ServerResponse, status: number, body?: unknown, type = 'application/json') {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

function sendProblem(res: ServerResponse, path: string, problem: Problem) {
  send(
    res,
    problem.status,
    {
      type: 'https://mailchimp.com/developer/marketing/docs/errors/',
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      instance: `fake-${path}`,
    },
    'application/problem+json',
  );
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new Problem(400, 'JSON Parse Error', 'We encountered an unspecified JSON parsing error.');
  }
}

function authorised(req: IncomingMessage, apiKey: string): boolean {
  const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !encoded) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === apiKey;
}

export async function startFakeMailchimp(
  options: { apiKey?: string; listId?: string } = {},
): Promise<FakeMailchimp> {
  const apiKey = options.apiKey ?? 'fake-key-us1';
  const listId = options.listId ?? 'fake-list';
  const members = new Map<string, FakeMember>();
  const requests: FakeRequest[] = [];
  const tagIds = new Map<string, number>();
  let nextFailure: Problem | undefined;

  const tagId = (name: string) => {
    if (!tagIds.has(name)) tagIds.set(name, tagIds.size + 1);
    return tagIds.get(name)!;
  };

  const member = (hash: string) => {
    const found = members.get(hash);
    if (!found) throw notFound();
    return found;
  };

  // Checked before anything changes, so a refused request leaves the member as it was.
  function checkStatus(body: Record<string, unknown>) {
    if (body.status !== undefined && !STATUSES.includes(String(body.status))) {
      throw invalid('status: Please provide a valid status.');
    }
  }

  function applyFields(target: FakeMember, body: Record<string, unknown>) {
    if (body.status !== undefined) target.status = String(body.status);
    if (body.merge_fields && typeof body.merge_fields === 'object') {
      Object.assign(target.merge_fields, body.merge_fields);
    }
  }

  // PUT: add or update, keyed by the hash that must match the e-mail address.
  function upsert(hash: string, body: Record<string, unknown>) {
    const email = String(body.email_address ?? '');
    if (!email.includes('@')) throw invalid('email_address: Please provide a valid email address.');
    if (hashOf(email) !== hash) throw invalid('The email address does not match the member hash.');
    checkStatus(body);
    const existing = members.get(hash);
    if (existing) {
      applyFields(existing, body);
      return existing;
    }
    if (!STATUSES.includes(String(body.status_if_new))) {
      throw invalid('status_if_new: Please provide a valid status.');
    }
    const created: FakeMember = {
      id: hash,
      email_address: email,
      status: String(body.status_if_new),
      tags: [],
      merge_fields: { SUBSCR_ID: '' },
    };
    applyFields(created, body);
    members.set(hash, created);
    return created;
  }

  // PATCH: a new e-mail address moves the member to the new address's hash.
  function update(hash: string, body: Record<string, unknown>) {
    const found = member(hash);
    checkStatus(body);
    if (typeof body.email_address === 'string' && hashOf(body.email_address) !== hash) {
      const newHash = hashOf(body.email_address);
      if (members.has(newHash)) {
        throw new Problem(400, 'Member Exists', `${body.email_address} is already a list member.`);
      }
      members.delete(hash);
      found.id = newHash;
      found.email_address = body.email_address;
      members.set(newHash, found);
    }
    applyFields(found, body);
    return found;
  }

  function updateTags(hash: string, body: Record<string, unknown>) {
    const found = member(hash);
    if (!Array.isArray(body.tags)) throw invalid('tags: Schema describes array.');
    for (const tag of body.tags as { name?: unknown; status?: unknown }[]) {
      const name = String(tag.name ?? '');
      if (!name || (tag.status !== 'active' && tag.status !== 'inactive')) {
        throw invalid('tags: each tag needs a name and a status of active or inactive.');
      }
      found.tags = found.tags.filter((existing) => existing.name !== name);
      if (tag.status === 'active') found.tags.push({ id: tagId(name), name });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const method = req.method ?? 'GET';
    let body: unknown;
    try {
      body = await readJson(req);
    } finally {
      requests.push({ method, path, body });
    }
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = undefined;
      throw failure;
    }
    if (!authorised(req, apiKey)) {
      throw new Problem(
        401,
        'API Key Invalid',
        "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
      );
    }
    const match = MEMBER_PATH.exec(path);
    if (!match || match[1] !== listId) throw notFound();
    const hash = match[2]!;
    const fields = (body ?? {}) as Record<string, unknown>;
    if (match[3]) {
      if (method !== 'POST') throw new Problem(405, 'Method Not Allowed', `${method} not allowed.`);
      updateTags(hash, fields);
      return send(res, 204);
    }
    if (method === 'GET') return send(res, 200, member(hash));
    if (method === 'PUT') return send(res, 200, upsert(hash, fields));
    if (method === 'PATCH') return send(res, 200, update(hash, fields));
    throw new Problem(405, 'Method Not Allowed', `${method} not allowed.`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const problem =
        error instanceof Problem ? error : new Problem(500, 'Internal Server Error', String(error));
      sendProblem(res, req.url ?? '/', problem);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    listId,
    members,
    requests,
    failNext(status, title) {
      nextFailure = new Problem(status, title, `A failure the test asked for (${status}).`);
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
