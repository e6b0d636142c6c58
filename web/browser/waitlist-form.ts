// The waiting-list form in the browser: it checks the address as it is typed, then gets a token
// and submits (the spec's states: valid check, spinner, 'Submitting...', a success banner for 8 s,
// an error banner until closed). Without script the form posts to the home page's action.
import { EMAIL_MESSAGES, isEmail, trackingFrom } from '#core/common';

export const SUCCESS_BANNER_MS = 8_000;
export const SUCCESS_TEXT = "You're on the list! We'll email you as soon as your spot opens.";
export const errorText = (contactEmail: string) =>
  `An error occurred. Please try again or send us an email at ${contactEmail}`;

type Banner = { kind: 'success' | 'error'; text: string } | null;

/** What a banner says, kept on its element so it is replaced only when that changes. */
const bannerKey = (banner: NonNullable<Banner>) => `${banner.kind}|${banner.text}`;

const SVG = 'http://www.w3.org/2000/svg';

function validCheck(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({
    class: 'field__check',
    role: 'img',
    'aria-label': 'Valid email',
    width: '20',
    height: '20',
    viewBox: '0 0 20 20',
  }))
    svg.setAttribute(name, value);
  const path = document.createElementNS(SVG, 'path');
  for (const [name, value] of Object.entries({
    d: 'M4 10.5l4 4 8-9',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2.5',
    'stroke-linecap': 'round',
  }))
    path.setAttribute(name, value);
  svg.append(path);
  return svg;
}

function spinner(): HTMLElement {
  const span = document.createElement('span');
  span.className = 'spinner';
  span.setAttribute('role', 'status');
  span.setAttribute('aria-label', 'Sending');
  return span;
}

function bannerElement(banner: NonNullable<Banner>, onClose: () => void): HTMLElement {
  const box = document.createElement('div');
  box.className = `banner banner--${banner.kind}`;
  box.dataset.banner = bannerKey(banner);
  box.setAttribute('role', banner.kind === 'error' ? 'alert' : 'status');
  const text = document.createElement('p');
  text.textContent = banner.text;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'banner__close';
  close.setAttribute('aria-label', 'Close');
  close.textContent = '×';
  close.addEventListener('click', onClose);
  box.append(text, close);
  return box;
}

export function enhanceWaitlistForm(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type="email"]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const field = input?.parentElement;
  if (!input || !button || !field) return;
  const label = button.textContent ?? '';
  const contactEmail = form.dataset.contactEmail ?? '';
  const errorId = `${input.id}-error`;
  const shown = form.nextElementSibling?.classList.contains('banner')
    ? (form.nextElementSibling as HTMLElement)
    : null;
  const state = {
    touched: false,
    fieldError: form.querySelector('.field__error')?.textContent || null,
    submitting: false,
    banner: (shown
      ? {
          kind: shown.classList.contains('banner--success') ? 'success' : 'error',
          text: shown.querySelector('p')?.textContent ?? '',
        }
      : null) as Banner,
  };
  if (shown && state.banner) shown.dataset.banner = bannerKey(state.banner);
  let bannerTimer: ReturnType<typeof setTimeout> | undefined;
  /** A submit says its error again even when the same one shows: the alert is put back. */
  let announceError = false;

  const setBanner = (banner: Banner) => {
    clearTimeout(bannerTimer);
    state.banner = banner;
    if (banner?.kind === 'success') {
      bannerTimer = setTimeout(() => setBanner(null), SUCCESS_BANNER_MS);
    }
    render();
  };

  function render() {
    const value = input!.value;
    const valid = isEmail(value);
    const message =
      state.fieldError ?? (state.touched && value !== '' && !valid ? EMAIL_MESSAGES.invalid : null);
    field!.classList.toggle('field--invalid', Boolean(message));
    input!.readOnly = state.submitting;
    input!.setAttribute('aria-invalid', String(Boolean(message)));
    if (message) input!.setAttribute('aria-describedby', errorId);
    else input!.removeAttribute('aria-describedby');

    // Elements are replaced only when what they say changes: an alert put back on every keystroke
    // is announced again on every keystroke.
    const mark = state.submitting ? 'spinner' : valid ? 'field__check' : null;
    const shownMark = field!.querySelector('.spinner, .field__check');
    if (!shownMark?.classList.contains(mark ?? '')) {
      shownMark?.remove();
      if (mark === 'spinner') field!.append(spinner());
      else if (mark) field!.append(validCheck());
    }

    button!.disabled = state.submitting;
    const buttonText = state.submitting ? 'Submitting...' : label;
    if (button!.textContent !== buttonText) button!.textContent = buttonText;

    const shownError = form.querySelector('.field__error');
    if (announceError || shownError?.textContent !== (message ?? undefined)) {
      announceError = false;
      shownError?.remove();
      if (message) {
        const error = document.createElement('p');
        error.id = errorId;
        error.className = 'field__error';
        error.setAttribute('role', 'alert');
        error.textContent = message;
        form.append(error);
      }
    }

    const next = form.nextElementSibling;
    const shownBanner = next?.classList.contains('banner') ? next : null;
    const wanted = state.banner ? bannerKey(state.banner) : undefined;
    if ((shownBanner as HTMLElement | null)?.dataset.banner !== wanted) {
      shownBanner?.remove();
      if (state.banner) form.after(bannerElement(state.banner, () => setBanner(null)));
    }
  }

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const value = input!.value;
    state.fieldError =
      value.trim() === '' ? EMAIL_MESSAGES.empty : isEmail(value) ? null : EMAIL_MESSAGES.invalid;
    if (state.fieldError) {
      announceError = true;
      return render();
    }
    state.submitting = true;
    setBanner(null);
    try {
      const tokenResponse = await fetch('/api/token');
      if (!tokenResponse.ok) throw new Error(`token ${tokenResponse.status}`);
      const { token } = (await tokenResponse.json()) as { token: string };
      const response = await fetch('/api/submit-email', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Token': token },
        body: JSON.stringify({
          email: value,
          ...trackingFrom(new URLSearchParams(window.location.search)),
        }),
      });
      if (!response.ok) throw new Error(`submit ${response.status}`);
      input!.value = '';
      state.touched = false;
      state.submitting = false;
      setBanner({ kind: 'success', text: SUCCESS_TEXT });
    } catch {
      state.submitting = false;
      setBanner({ kind: 'error', text: errorText(contactEmail) });
    }
  }

  input.addEventListener('input', () => {
    state.fieldError = null;
    render();
  });
  input.addEventListener('blur', () => {
    state.touched = true;
    render();
  });
  form.addEventListener('submit', (event) => void submit(event));
  // A banner the server rendered (the no-script answer) behaves as one shown here.
  setBanner(state.banner);
}
