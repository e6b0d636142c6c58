// The get-started funnel's server side: the page's loader (the vus rule, who the invitation link
// names, the sentence starters), Welcome's 'Start' as a form (without JavaScript), and the
// funnel's calls, each authorised by the invitation token the page was opened with: the
// verification step, signup, and the ip variant's assistant.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as v from 'valibot';
import * as Assistant from '#core/assistant';
import { isVisibleError, trackingFrom, VisibleError } from '#core/common';
import * as SentenceStarters from '#core/sentence-starters';
import * as Users from '#core/users';
import { handleApi, json, methodNotAllowed, readForm, readJson } from '#web/lib/api.server';
import { requireSameSite } from '#web/lib/user.server';

export const VARIANTS = ['', 'sp', 'ip'] as const;
export type Variant = (typeof VARIANTS)[number];

/** The page's data: the variant, who the link names and what they built so far, the starters. */
export async function loadGetStarted({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const given = url.searchParams.getAll('vus');
  const vus = given.find((value): value is Variant =>
    (VARIANTS as readonly string[]).includes(value),
  );
  if (given.length > (vus === undefined ? 0 : 1)) {
    // Spec §5: any other vus value is removed through a redirect; the rest of the query stays.
    // A repeated vus counts too (`vus=sp&vus=zz`): only the first of ours is kept.
    url.searchParams.delete('vus');
    if (vus !== undefined) url.searchParams.set('vus', vus);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const variant = vus ?? '';
  const { invited, linkProblem, onboarded, draft } = await invitation(url.searchParams.get('user'));
  if (draft && invited?.status === 'Verified' && !url.searchParams.has('step')) {
    // The invitation opened again: the reader goes on where they were, in the variant they used.
    if (draft.state.variant) url.searchParams.set('vus', draft.state.variant);
    else url.searchParams.delete('vus');
    url.searchParams.set('step', draft.state.step);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const [starters, start] = await Promise.all([
    variant === 'ip' || linkProblem ? [] : SentenceStarters.list(),
    startingPoint(invited, draft, variant),
  ]);
  return data(
    {
      variant,
      invited: invited && { name: invited.name, email: invited.email, status: invited.status },
      linkProblem: linkProblem?.message ?? null,
      onboarded,
      starters,
      ...start,
    },
    { status: linkProblem?.status ?? 200 },
  );
}

/**
 * Welcome's 'Start' posted as a form (the page without JavaScript; with it, the page makes the
 * same check itself): the invited reader is verified with the address the invitation was sent
 * to, and the first step of their variant is the answer's redirect. A refusal is the page's error.
 */
export async function startFromInvitation({ request }: ActionFunctionArgs) {
  requireSameSite(request);
  const url = new URL(request.url);
  try {
    const form = await readForm(request);
    if (form.get('intent') !== 'start') {
      throw new VisibleError('input.invalid', 'Unknown action', 400);
    }
    const token = url.searchParams.get('user') ?? '';
    const { user } = await Users.openInvitation(token);
    await Users.checkSignupStatus({
      token,
      email: user.email,
      tracking: trackingFrom(url.searchParams),
    });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ error: error.message }, { status: error.status });
  }
  url.searchParams.set('step', url.searchParams.get('vus') === 'ip' ? 'chat' : 'starters');
  return redirect(`${url.pathname}${url.search}`);
}

/**
 * What the page starts from: the reader's draft and their interview so far. A draft made in
 * another variant does not fit this one's steps: the page starts afresh.
 */
async function startingPoint(
  invited: Users.User | null,
  draft: Users.Draft | null,
  variant: Variant,
) {
  const kept = draft?.state.variant === variant ? draft : null;
  const chat =
    invited && kept?.state.threadId
      ? await Assistant.interview(invited.id, kept.state.threadId)
      : null;
  return { draft: kept, chat };
}

/**
 * The reader the link names (null for no link, a bad one, or one of a reader who signed up) and
 * their draft. A link that names nobody (forged, cut short, replaced or expired) is said to be
 * not valid, with the status the page answers (ADR 0051): it tells its holder nothing about who
 * is invited. A reader who signed up is told so, with the way to sign in.
 */
async function invitation(token: string | null) {
  const none = {
    invited: null,
    linkProblem: null as { message: string; status: number } | null,
    onboarded: null,
    draft: null,
  };
  if (token === null) return none;
  const broken = (status: number) => ({
    ...none,
    linkProblem: { message: Users.SIGNUP_MESSAGES.invitationExpired, status },
  });
  if (!token || token.length > 500) return broken(400);
  try {
    const { user, draft } = await Users.openInvitation(token);
    return { ...none, invited: user, draft: draft ?? null };
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    if (error.status === 409) return { ...none, onboarded: error.message };
    return broken(error.status === 410 ? 410 : 400);
  }
}

/** Bodies are small: at most 50 clues of 500 characters, or one 1,000-character message. */
const MAX_BODY_BYTES = 64 * 1024;

const Token = v.pipe(
  v.string(Users.SIGNUP_MESSAGES.needInvitation),
  v.maxLength(500, Users.SIGNUP_MESSAGES.needInvitation),
);
const Body = <T extends v.ObjectEntries>(entries: T) => v.object({ token: Token, ...entries });

function parsed<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) {
    throw new VisibleError('input.invalid', result.issues[0]?.message ?? 'Invalid input', 400);
  }
  return result.output;
}

/** The user the token names, as the assistant's owner; any bad token asks for the invitation. */
async function assistantUser(token: string) {
  try {
    return await Users.fromInvitation(token);
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    throw new VisibleError('user.need_invitation', Users.SIGNUP_MESSAGES.needInvitation, 403);
  }
}

const CALLS = {
  'check-signup-status': async (body: unknown) => {
    // The e-mail's own messages are core/users' ('Please enter your email' when it is missing).
    // `search`: the page's query string, whose tracking values are the reader's if this starts
    // their funnel (malformed ones are dropped, as on every page).
    const input = parsed(
      v.object({
        token: v.optional(Token),
        email: v.optional(v.unknown()),
        search: v.optional(
          v.pipe(v.string(), v.maxLength(4000, 'The page address is too long')),
          '',
        ),
      }),
      body,
    );
    const status = await Users.checkSignupStatus({
      token: input.token,
      email: input.email as string,
      tracking: trackingFrom(new URLSearchParams(input.search)),
    });
    return { name: status.name, status: status.status };
  },
  'read-draft': async (body: unknown) => {
    // The page, once loaded, reads again what it started from (use-draft: the page before it may
    // have saved after its loader read the draft).
    const { token, variant } = parsed(Body({ variant: v.picklist(VARIANTS) }), body);
    const { user, draft } = await Users.openInvitation(token);
    return startingPoint(user, draft ?? null, variant);
  },
  'save-draft': async (body: unknown) => {
    // core/users validates the draft; here only that the body is an object with a token.
    const input = parsed(v.looseObject({ token: Token }), body);
    return Users.saveDraft(input as v.InferInput<typeof Users.SaveDraftInput>);
  },
  signup: async (body: unknown) => {
    // core/users validates every field; here only that the body is an object with a token.
    const input = parsed(v.looseObject({ token: Token }), body);
    await Users.completeSignup(input as Users.CompleteSignupInput);
    return { ok: true };
  },
  'initialize-thread': async (body: unknown) => {
    const { token } = parsed(Body({}), body);
    return Assistant.startInterview(await assistantUser(token));
  },
  'send-message': async (body: unknown) => {
    const input = parsed(Body({ threadId: v.string(), message: v.unknown() }), body);
    const user = await assistantUser(input.token);
    return Assistant.interviewMessage({
      userId: user.id,
      threadId: input.threadId,
      message: input.message as string,
    });
  },
  'retrieve-clues': async (body: unknown) => {
    const input = parsed(Body({ threadId: v.string() }), body);
    const user = await assistantUser(input.token);
    return Assistant.interviewClues({ userId: user.id, threadId: input.threadId });
  },
} as const;

export type FunnelCall = keyof typeof CALLS;

/** POST /get-started/{call} with a JSON body; every refusal is a 4xx JSON error. */
export async function funnelCall(request: Request, call: string | undefined): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  return handleApi(async () => {
    if (!call || !Object.hasOwn(CALLS, call)) {
      throw new VisibleError('not_found', 'There is no such call', 404);
    }
    const body = await readJson(request, MAX_BODY_BYTES);
    return json(await CALLS[call as FunnelCall](body));
  });
}
