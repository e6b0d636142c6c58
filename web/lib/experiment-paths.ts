// The Experiments screen's address: what is chosen (process, implementation, tab, page) lives in
// the URL, and so do its modals (`run`, `modal`, `promote`, `removePrompt`), so each step works
// without JavaScript and a reload shows the same thing.
export const EXPERIMENTS_PATH = '/admin-panel/experiments';
export const COMPARE_PATH = '/admin-panel/experiments/compare';

export type Tab = 'runs' | 'prompts';
export type ScreenState = { process?: string; implementation?: string; tab?: Tab; page?: number };

export function experimentsHref(state: ScreenState, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    ...(state.process && { process: state.process }),
    ...(state.implementation && { implementation: state.implementation }),
    ...(state.tab === 'prompts' && { tab: 'prompts' }),
    ...(state.page && state.page > 1 && { page: String(state.page) }),
    ...extra,
  });
  const search = params.toString();
  return search ? `${EXPERIMENTS_PATH}?${search}` : EXPERIMENTS_PATH;
}

export function compareHref(runIds: string[]): string {
  const params = new URLSearchParams(runIds.map((id) => ['runs', id]));
  return `${COMPARE_PATH}?${params}`;
}
