// The WhatToExpect modal: three bullet points and 'Ok, Great!'. A native <dialog>: opened as a
// modal by script, or rendered open by the server (?expect=1) when there is no JavaScript.
import { forwardRef } from 'react';

type Props = { title: string; frequency: 'daily' | 'weekly'; initiallyOpen: boolean };

export const WhatToExpect = forwardRef<HTMLDialogElement, Props>(function WhatToExpect(
  { title, frequency, initiallyOpen },
  ref,
) {
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby="what-to-expect-title"
      open={initiallyOpen || undefined}
    >
      <h2 id="what-to-expect-title">What to expect</h2>
      <ul className="modal__points">
        <li>
          {frequency === 'daily'
            ? 'One e-mail every morning, readable in 5 minutes.'
            : 'One e-mail every week with the stories you should not miss.'}
        </li>
        <li>Stories picked for people who {title}, each explained by our editors and AI.</li>
        <li>No spam: change your audiences or unsubscribe at any time, in one click.</li>
      </ul>
      <form method="dialog">
        <button type="submit" className="button" autoFocus>
          Ok, Great!
        </button>
      </form>
    </dialog>
  );
});
