// User Management's data and actions: a page of users (or of search results), the user a modal
// is open for, and add / edit / invite as the signed-in admin. User mistakes come back as the
// form's messages with a 4xx; nothing else is caught.
import { data } from '@remix-run/node';
import { isVisibleError, VisibleError } from '#core/common';
import { config } from '#core/config';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import type { ReaderFeedView } from '#web/components/reader-feed';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';

export type UserRow = Pick<
  Users.User,
  'id' | 'name' | 'email' | 'status' | 'isActive' | 'createdAt' | 'invitedAt'
>;
const row = ({ id, name, email, status, isActive, createdAt, invitedAt }: Users.User): UserRow => ({
  id,
  name,
  email,
  status,
  isActive,
  createdAt,
  invitedAt,
});

/** The three get-started variants an invitation may land on. */
export function landingVariants() {
  const start = new URL('/get-started', config().PUBLIC_URL).toString();
  return [
    {
      id: 'default',
      label: 'Default',
      description: 'Get started as every visitor does: sentence starters the reader completes.',
      url: start,
    },
    {
      id: 'sp',
      label: 'Show pointers',
      description: 'Each sentence starter lists example clues the reader can pick.',
      url: `${start}?vus=sp`,
    },
    {
      id: 'ip',
      label: 'Interactive prompt',
      description: 'The reader describes themselves to the assistant, in a conversation.',
      url: `${start}?vus=ip`,
    },
  ];
}

export async function userManagementLoader(request: Request) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = (url.searchParams.get('q') ?? '').slice(0, 254);
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const editId = url.searchParams.get('edit');
  const inviteId = url.searchParams.get('invite');
  let page: Users.UserPage = { users: [] };
  let error: string | undefined;
  try {
    page = query.trim() ? await Users.search({ query, cursor }) : await Users.list({ cursor });
  } catch (caught) {
    if (!isVisibleError(caught)) throw caught;
    error = caught.message;
  }
  const [editing, inviting] = await Promise.all([
    editId ? Users.byId(editId) : undefined,
    inviteId ? Users.byId(inviteId) : undefined,
  ]);
  return {
    query,
    currentCursor: error ? undefined : cursor,
    reader: editing && (await readerFeed(editing)),
    users: page.users.map(row),
    next: page.next,
    previous: page.previous,
    error,
    adding: url.searchParams.get('modal') === 'add',
    editing: editing && row(editing),
    inviting: inviting && row(inviting),
    /** The house invitation, for the form to start from. */
    invitationBody: inviting && Users.invitationTemplate(inviting),
    variants: landingVariants(),
  };
}

/** What the reader's feed is made from: their clues and their scored articles. */
async function readerFeed(user: Users.User): Promise<ReaderFeedView> {
  const { scores, counts } = await Scoring.forReader(user);
  return {
    clues: (user.descriptors ?? []).map(({ id, clue }) => ({ id, clue })),
    counts,
    scores: scores.map(({ articleId, title, source, publishedAt, label, relevantClues }) => ({
      articleId,
      title,
      source,
      publishedAt,
      label,
      relevantClues: relevantClues ?? [],
    })),
    shown: Scoring.READER_SCORES_SHOWN,
  };
}

type Intent = 'add' | 'edit' | 'invite';
export type ActionResult =
  | { intent: Intent; toast: string; at: number }
  | {
      intent: Intent | 'unknown';
      error: string;
      field?: 'name' | 'email' | 'body' | 'landingUrl';
      /** The user an edit or invitation was for, so its modal opens again with the message. */
      user?: UserRow;
      /** What was typed, so a refused form (without JavaScript, a new page) keeps it. */
      typed?: Typed;
    };

type Typed = { name: string; email: string; body: string; landingUrl: string };

const FIELD_OF: Record<string, 'name' | 'email' | 'body' | 'landingUrl'> = {
  [Users.USER_MESSAGES.nameRequired]: 'name',
  [Users.USER_MESSAGES.nameTooLong]: 'name',
  [Users.USER_MESSAGES.emailRequired]: 'email',
  [Users.USER_MESSAGES.emailInvalid]: 'email',
  [Users.USER_MESSAGES.emailTaken]: 'email',
  [Users.INVITATION_MESSAGES.bodyRequired]: 'body',
  [Users.INVITATION_MESSAGES.bodyTooLong]: 'body',
  [Users.INVITATION_MESSAGES.landingRequired]: 'landingUrl',
};

/** The landing URL typed, or the chosen variant's when none was typed (works without script). */
export function landingUrlOf(form: URLSearchParams): string {
  const typed = String(form.get('landingUrl') ?? '').trim();
  if (typed) return typed;
  return landingVariants().find((variant) => variant.id === form.get('variant'))?.url ?? '';
}

export async function userManagementAction(request: Request) {
  const admin = await requireAdmin(request);
  let intent: Intent | 'unknown' = 'unknown';
  let userId = '';
  let typed: Typed | undefined;
  try {
    const form = await readForm(request);
    userId = String(form.get('id') ?? '');
    const text = (name: string) => String(form.get(name) ?? '');
    // Echoed only when refused; bounded so an answer is never much larger than the limits.
    const echo = (name: string) => text(name).slice(0, 10_000);
    typed = {
      name: echo('name'),
      email: echo('email'),
      body: echo('body'),
      landingUrl: echo('landingUrl'),
    };
    const status = text('status') as Users.UserStatus;
    const at = Date.now();
    switch (form.get('intent')) {
      case 'add': {
        intent = 'add';
        const user = await Users.create({
          name: text('name'),
          email: text('email'),
          status: status || undefined,
          isActive: form.get('isActive') === 'on',
        });
        return { intent, toast: `User ${user.name} added successfully`, at };
      }
      case 'edit': {
        intent = 'edit';
        const user = await Users.update(text('id'), {
          name: text('name'),
          status: status || undefined,
          isActive: form.get('isActive') === 'on',
        });
        return { intent, toast: `User ${user.name} updated successfully`, at };
      }
      case 'invite': {
        intent = 'invite';
        const { user } = await Users.invite({
          userId: text('id'),
          body: text('body'),
          landingUrl: landingUrlOf(form),
          actorId: admin.id,
        });
        return { intent, toast: `Invitation sent successfully to ${user.email}`, at };
      }
      default:
        throw new VisibleError('request.unknown_intent', 'This action is not known', 400);
    }
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    const field = FIELD_OF[error.message];
    const user = intent === 'edit' || intent === 'invite' ? await Users.byId(userId) : undefined;
    return data(
      {
        intent,
        error: error.message,
        field,
        user: user && row(user),
        typed,
      } satisfies ActionResult,
      {
        status: error.status,
      },
    );
  }
}
