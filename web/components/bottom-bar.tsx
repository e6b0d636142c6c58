// The bottom subscription bar: appears once the visitor has scrolled past 800 pixels.
import { useEffect, useState, type ReactNode } from 'react';

export const BOTTOM_BAR_REVEAL_PX = 800;

export function BottomBar({ children }: { children: ReactNode }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > BOTTOM_BAR_REVEAL_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  return (
    <aside className="bottom-bar" aria-label="Subscribe" hidden={!visible}>
      {children}
    </aside>
  );
}
