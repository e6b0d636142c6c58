// A menu built on <details> (web/browser/menu.ts); in a hydrated page it also closes on every
// navigation.
import { useLocation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { watchMenu } from '#web/browser/menu';

export function useClosingMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    menu.current?.removeAttribute('open');
  }, [location.key]);
  useEffect(() => {
    if (!menu.current) return;
    return watchMenu(menu.current);
  }, []);

  return { menu };
}
