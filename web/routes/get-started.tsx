// GetStarted (/get-started?utm&vus&user&step): the signup funnel in three variants (spec §2-§5).
// The invitation link's `user` token names the reader; each step has its URL (`step`), so Back goes
// one step back; what the reader builds is saved on the server against the invitation (the draft)
// and found again on a reload or a return. Every call is a JSON POST authorised by the token.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useSearchParams } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { DraftState } from '#core/users';
import { ChatStep, CluesStep, type Chat } from '#web/components/get-started/chat-step';
import { DescriptorStep } from '#web/components/get-started/descriptor-step';
import {
  CompletedStep,
  OnboardedStep,
  ReviewStep,
  VerificationStep,
  WelcomeStep,
} from '#web/components/get-started/entry-steps';
import {
  entryClue,
  post,
  resolveStep,
  restoredEntries,
  storedEntry,
  type Step,
} from '#web/components/get-started/funnel';
import { PointerStep, StarterStep } from '#web/components/get-started/starter-steps';
import { useDraftSaver } from '#web/components/get-started/use-draft';
import { useEntries } from '#web/components/get-started/use-entries';
import { useSteps } from '#web/components/get-started/use-steps';
import { LinkError } from '#web/components/link-error';
import { privatePageHeaders } from '#web/lib/cache';
import { loadGetStarted, startFromInvitation } from './get-started.server';

export const meta: MetaFunction = () => [{ title: 'Get started · Cluefeed' }];
// The link's token is in the URL: never stored by a browser cache or a CDN.
export const headers = privatePageHeaders;

export function loader(args: LoaderFunctionArgs) {
  return loadGetStarted(args);
}

export function action(args: ActionFunctionArgs) {
  return startFromInvitation(args);
}

export { shouldRevalidate } from '#web/components/get-started/use-steps';

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
/** What the funnel starts from. */
type Start = Pick<Data, 'draft' | 'chat'>;

export default function GetStarted() {
  const data = useLoaderData<typeof loader>();
  // The funnel starts from the loader's draft, or, once, from a newer one the server holds when the
  // page has loaded (use-draft): it starts again from that, as a load would. At once, so that
  // nothing the reader does comes between the check that they did nothing yet and the new start.
  const [newer, setNewer] = useState<Start>();
  const takeNewer = useCallback((found: Start) => flushSync(() => setNewer(found)), []);
  const start = newer ?? data;
  // A link that names nobody has no steps: it says so, with no address box to try (ADR 0051).
  if (data.linkProblem) return <LinkError message={data.linkProblem} />;
  return (
    <Funnel
      key={start.draft?.revision ?? 0}
      data={{ ...data, draft: start.draft, chat: start.chat }}
      onNewer={newer ? undefined : takeNewer}
    />
  );
}

function Funnel({ data, onNewer }: { data: Data; onNewer?: (found: Start) => void }) {
  const { variant, invited, starters } = data;
  const saved = data.draft?.state;
  const token = useSearchParams()[0].get('user') ?? '';
  const [verified, setVerified] = useState(invited?.status === 'Verified');
  const [done, setDone] = useState(false);
  // Without JavaScript, a refused 'Start' comes back as the page's action data.
  const refused = useActionData<typeof action>();
  const [error, setError] = useState<string | undefined>(refused?.error);
  const [busy, setBusy] = useState(false);
  const [chat, setChat] = useState<Chat>({
    threadId: data.chat?.threadId,
    messages: data.chat?.messages ?? [],
    startedAt: saved?.startedAt,
  });
  const [review, setReview] = useState(saved?.review);
  const timeSpent = useRef<number>();
  const errorRef = useRef<HTMLDivElement>(null);

  const fail = useCallback((message: string) => {
    setError(message);
    window.scrollTo({ top: 0 });
    errorRef.current?.focus();
  }, []);
  // Moves read the step on screen when they are made, once it is resolved below.
  let shown: Step = 'welcome';
  const steps = useSteps(() => shown);
  const funnel = useEntries(variant, restoredEntries(saved, starters), steps, fail);
  const clues =
    variant === 'ip'
      ? (review?.clues ?? [])
      : funnel.entries.filter((entry) => entry.finalized).map(entryClue);
  shown = resolveStep(steps.requested, {
    variant,
    invited: Boolean(invited),
    verified,
    done,
    current: funnel.current,
    clues,
    reviewed: review !== undefined,
  });

  // Arriving at a step, however (a click, Back, Forward, a reload): its state and no old error.
  const [moved, setMoved] = useState(false);
  const first = useRef(shown);
  const { settle } = funnel;
  useEffect(() => {
    settle(shown);
    if (first.current !== shown) {
      setMoved(true);
      setError(undefined);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per step shown
  }, [shown]);
  // The URL names a step the reader cannot be at (yet), or the review after the signup: it is
  // replaced by the step shown. Only once a move has landed: a click changes the state first
  // and the URL after, and must not be undone in between.
  useEffect(() => {
    const url = shown === 'welcome' || shown === 'verification' ? null : shown;
    if (url !== steps.requested) steps.correct();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when the URL or the signup changes
  }, [steps.requested, done]);

  const draft: DraftState | undefined =
    verified && shown !== 'welcome' && shown !== 'completed'
      ? {
          variant,
          step: shown as DraftState['step'],
          entries: funnel.entries.map(storedEntry),
          currentId: funnel.currentId,
          threadId: chat.threadId,
          startedAt: chat.startedAt,
          review,
        }
      : undefined;
  useDraftSaver(
    token,
    { revision: data.draft?.revision ?? 0, state: saved },
    draft,
    { finished: done, typing: shown === 'descriptor' },
    fail,
    onNewer,
  );

  async function call(path: string, body: object, then: () => void) {
    setBusy(true);
    try {
      await post(path, { token, ...body });
      then();
    } catch (caught) {
      fail((caught as Error).message);
    } finally {
      setBusy(false);
    }
  }
  /** The interview's time until 'Complete Profile' (to now after a reload); a day at most. */
  const spentMs = () => {
    const spent = timeSpent.current ?? (chat.startedAt && Date.now() - chat.startedAt);
    return spent !== undefined && spent <= 86_400_000 ? spent : undefined;
  };
  const start = (email: string) =>
    void call('/get-started/check-signup-status', { email, search: location.search }, () => {
      setVerified(true);
      steps.go(variant === 'ip' ? 'chat' : 'starters');
    });

  return (
    <div className="page narrow funnel">
      <div
        ref={errorRef}
        tabIndex={-1}
        role="alert"
        className={error ? 'banner banner--error' : ''}
      >
        {error}
      </div>
      {data.onboarded && <OnboardedStep message={data.onboarded} />}
      {!data.onboarded && shown === 'verification' && (
        <VerificationStep focus={moved} busy={busy} onSubmit={start} />
      )}
      {shown === 'welcome' && invited && (
        <WelcomeStep name={invited.name} busy={busy} onStart={() => start(invited.email)} />
      )}
      {shown === 'starters' && variant !== 'ip' && (
        <StarterStep
          variant={variant}
          starters={starters}
          entries={funnel.entries}
          focus={moved}
          onStarter={funnel.chooseStarter}
          onPointer={funnel.chooseBoth}
          onEdit={funnel.edit}
          onDelete={funnel.remove}
          onComplete={() => steps.go('review')}
        />
      )}
      {shown === 'pointer' && funnel.current && (
        <PointerStep
          starter={funnel.current.starter}
          focus={moved}
          onPointer={funnel.choosePointer}
          onBack={funnel.backFromPointer}
        />
      )}
      {shown === 'descriptor' && funnel.current && (
        <DescriptorStep
          entry={funnel.current}
          index={funnel.entries.indexOf(funnel.current)}
          evaluating={funnel.evaluating}
          focus={moved}
          onChange={funnel.rename}
          onEvaluate={() => void funnel.evaluate()}
          onBack={funnel.backFromDescriptor}
          onAdd={funnel.add}
        />
      )}
      {shown === 'chat' && (
        <ChatStep
          token={token}
          chat={chat}
          focus={moved}
          setChat={setChat}
          onError={fail}
          onClues={(found, suggestion) => {
            setReview({ clues: found, suggestion });
            steps.go('clues');
          }}
        />
      )}
      {shown === 'clues' && review && (
        <CluesStep
          {...review}
          focus={moved}
          onChange={(edited) => setReview({ ...review, clues: edited })}
          onBack={() => steps.returnTo('chat')}
          onComplete={() => {
            timeSpent.current = chat.startedAt ? Date.now() - chat.startedAt : undefined;
            steps.go('review');
          }}
        />
      )}
      {shown === 'review' && (
        <ReviewStep
          focus={moved}
          busy={busy}
          onSubmit={(password, confirmPassword) =>
            void call(
              '/get-started/signup',
              {
                password,
                confirmPassword,
                clues,
                ...(variant === 'ip' && { threadId: chat.threadId, timeSpentMs: spentMs() }),
              },
              () => setDone(true),
            )
          }
        />
      )}
      {shown === 'completed' && <CompletedStep focus={moved} />}
    </div>
  );
}
