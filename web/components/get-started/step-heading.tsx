// A step's heading, focused when the step appears after another (not on the first load), so a
// screen reader and the keyboard start at the new step.
import { useEffect, useRef, type ReactNode } from 'react';

export function StepHeading({ focus, children }: { focus: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h1 ref={ref} tabIndex={-1} className="funnel__title">
      {children}
    </h1>
  );
}
