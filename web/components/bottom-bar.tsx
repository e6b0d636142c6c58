// The bottom subscription bar: hidden until the visitor has scrolled past 800 pixels
// (web/browser/audience-page.ts), or shown with the answer to a subscription sent from it.
import type { ReactNode } from 'react';

export function BottomBar({ shown, children }: { shown: boolean; children: ReactNode }) {
  return (
    <aside className="bottom-bar" aria-label="Subscribe" hidden={!shown}>
      {children}
    </aside>
  );
}
