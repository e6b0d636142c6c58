// The WhatToExpect modal: three bullet points and 'Ok, Great!'. A native <dialog>: opened as a
// modal by script (its openers carry `data-opens="what-to-expect"`), or rendered open by the
// server (?expect=1) when there is no JavaScript.
type Props = { title: string; frequency: 'daily' | 'weekly'; initiallyOpen: boolean };

export const WHAT_TO_EXPECT_ID = 'what-to-expect';

export function WhatToExpect({ title, frequency, initiallyOpen }: Props) {
  return (
    <dialog
      id={WHAT_TO_EXPECT_ID}
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
}
