// GetStarted (/get-started?utm&vus&user): the signup funnel in three variants (spec §2-§5).
// The invitation link's `user` token names the reader; the steps' state lives in the page, and
// every server call (verification, evaluation, chat, signup) is a JSON POST authorised by it.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useSearchParams } from '@remix-run/react';
import { useCallback, useRef, useState } from 'react';
import { ChatStep, CluesStep, type Chat } from '#web/components/get-started/chat-step';
import { DescriptorStep } from '#web/components/get-started/descriptor-step';
import {
  CompletedStep,
  ReviewStep,
  VerificationStep,
  WelcomeStep,
} from '#web/components/get-started/entry-steps';
import { entryClue, post, type Step } from '#web/components/get-started/funnel';
import { PointerStep, StarterStep } from '#web/components/get-started/starter-steps';
import { useEntries } from '#web/components/get-started/use-entries';
import { privatePageHeaders } from '#web/lib/cache';
import { loadGetStarted } from './get-started.server';

export const meta: MetaFunction = () => [{ title: 'Get started · Cluefeed' }];
// The link's token is in the URL: never stored by a browser cache or a CDN.
export const headers = privatePageHeaders;

export function loader(args: LoaderFunctionArgs) {
  return loadGetStarted(args);
}

export default function GetStarted() {
  const { variant, invited, linkProblem, starters } = useLoaderData<typeof loader>();
  const token = useSearchParams()[0].get('user') ?? '';
  const [step, setStep] = useState<Step>(invited ? 'welcome' : 'verification');
  const [moved, setMoved] = useState(false);
  const [error, setError] = useState<string | undefined>(linkProblem ?? undefined);
  const [busy, setBusy] = useState(false);
  const [chat, setChat] = useState<Chat>({ messages: [] });
  const [chatClues, setChatClues] = useState({ clues: [] as string[], suggestion: '' });
  const timeSpent = useRef<number>();
  const errorRef = useRef<HTMLDivElement>(null);

  const go = useCallback((next: Step) => {
    setError(undefined);
    setMoved(true);
    setStep(next);
  }, []);
  const fail = useCallback((message: string) => {
    setError(message);
    window.scrollTo({ top: 0 });
    errorRef.current?.focus();
  }, []);
  const funnel = useEntries(variant, go, fail);
  const firstStep: Step = variant === 'ip' ? 'chat' : 'starters';

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

  const clues =
    variant === 'ip'
      ? chatClues.clues
      : funnel.entries.filter((entry) => entry.finalized).map(entryClue);

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
      {step === 'verification' && (
        <VerificationStep
          focus={moved}
          busy={busy}
          onSubmit={(email) =>
            void call('/get-started/check-signup-status', { email }, () => go(firstStep))
          }
        />
      )}
      {step === 'welcome' && invited && (
        <WelcomeStep
          name={invited.name}
          busy={busy}
          onStart={() =>
            void call('/get-started/check-signup-status', { email: invited.email }, () =>
              go(firstStep),
            )
          }
        />
      )}
      {step === 'starters' && variant !== 'ip' && (
        <StarterStep
          variant={variant}
          starters={starters}
          entries={funnel.entries}
          focus={moved}
          onStarter={funnel.chooseStarter}
          onPointer={funnel.chooseBoth}
          onEdit={funnel.edit}
          onDelete={funnel.remove}
          onComplete={() => go('review')}
        />
      )}
      {step === 'pointer' && funnel.current && (
        <PointerStep
          starter={funnel.current.starter}
          focus={moved}
          onPointer={funnel.choosePointer}
          onBack={funnel.backFromPointer}
        />
      )}
      {step === 'descriptor' && funnel.current && (
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
      {step === 'chat' && (
        <ChatStep
          token={token}
          chat={chat}
          focus={moved}
          setChat={setChat}
          onError={fail}
          onClues={(found, suggestion) => {
            setChatClues({ clues: found, suggestion });
            go('clues');
          }}
        />
      )}
      {step === 'clues' && (
        <CluesStep
          {...chatClues}
          focus={moved}
          onBack={() => go('chat')}
          onComplete={() => {
            timeSpent.current = chat.startedAt ? Date.now() - chat.startedAt : undefined;
            go('review');
          }}
        />
      )}
      {step === 'review' && (
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
                ...(variant === 'ip' && {
                  threadId: chat.threadId,
                  timeSpentMs: timeSpent.current,
                }),
              },
              () => go('completed'),
            )
          }
        />
      )}
      {step === 'completed' && <CompletedStep focus={moved} />}
    </div>
  );
}
