// A menu built on <details>, so it opens and closes without script (ADR 7). With script it also
// closes on every navigation, on Escape (focus back on its toggler) and on a click outside it.
import { useLocation } from '@remix-run/react';
import { useEffect, useRef } from 'react';

export function useClosingMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const close = () => menu.current?.removeAttribute('open');

  useEffect(() => {
    menu.current?.removeAttribute('open');
  }, [location.key]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && menu.current?.open) {
        menu.current.removeAttribute('open');
        menu.current.querySelector('summary')?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) {
        menu.current.removeAttribute('open');
      }
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  return { menu, close };
}
