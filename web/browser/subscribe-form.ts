// A subscribe form in the browser: once sent, it says so and cannot be sent twice. Coming back
// to the page from the browser's history finds it ready again. A page that comes back with the
// subscription refused puts the refused field in focus, so its error is read out and fixed there.
export function markSending(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type="email"]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!input || !button) return;
  if (input.getAttribute('aria-invalid') === 'true') input.focus();
  const label = button.textContent ?? '';
  const ready = (sending: boolean) => {
    input.readOnly = sending;
    button.disabled = sending;
    button.textContent = sending ? 'Subscribing...' : label;
  };
  form.addEventListener('submit', () => ready(true));
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) ready(false);
  });
}
