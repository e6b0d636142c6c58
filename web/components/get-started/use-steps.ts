// The funnel's steps as URLs (`?step=`): each step the reader moves on to is a history entry, so
// the browser's Back (a phone's swipe) goes one step back, a reload stays on the step, and the
// page's own 'Back' returns to the history entry the step came from when it is there.
import {
  useLocation,
  useNavigate,
  useSearchParams,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import type { Step } from './funnel';

/** Moving between steps changes only `step`: the page already holds everything the loader read. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, ...rest }) => {
  const withoutStep = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete('step');
    return `${url.pathname}?${params.toString()}`;
  };
  return withoutStep(currentUrl) === withoutStep(nextUrl) ? false : rest.defaultShouldRevalidate;
};

/** Kept with each history entry the funnel pushes: the steps before it, oldest first. */
type EntryState = { funnelSteps?: Step[] } | null;

/** `shown` answers the step on screen when a move is made (the page resolves it after this). */
export function useSteps(shown: () => Step) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const before = (location.state as EntryState)?.funnelSteps ?? [];

  const hrefFor = (step: Step) => {
    const next = new URLSearchParams(params);
    if (step === 'welcome' || step === 'verification') next.delete('step');
    else next.set('step', step);
    return `?${next.toString()}`;
  };

  return {
    requested: params.get('step'),
    go(step: Step) {
      navigate(hrefFor(step), { state: { funnelSteps: [...before, shown()] } });
    },
    returnTo(step: Step) {
      const at = before.lastIndexOf(step);
      if (at >= 0) navigate(at - before.length);
      else navigate(hrefFor(step), { replace: true, state: { funnelSteps: before } });
    },
    /** The URL names another step than the one shown (not open yet, or signed up): replaced. */
    correct() {
      navigate(hrefFor(shown()), { replace: true, state: location.state as EntryState });
    },
  };
}
