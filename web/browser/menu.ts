// A menu built on <details> opens and closes without script (ADR 7). With script it also closes
// on Escape (focus back on its toggler), on a click outside it and on a click on one of its links.
export function watchMenu(menu: HTMLDetailsElement): () => void {
  const close = () => menu.removeAttribute('open');
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && menu.open) {
      close();
      menu.querySelector('summary')?.focus();
    }
  };
  const onClick = (event: MouseEvent) => {
    if (!menu.open) return;
    const target = event.target as Element;
    if (!menu.contains(target) || target.closest('a')) close();
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('click', onClick);
  return () => {
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('click', onClick);
  };
}
