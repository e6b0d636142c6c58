// An admin modal that the URL opens (`?modal=add`, `?edit={id}`): a native <dialog> shown as a
// modal by script, or rendered open by the server when there is no JavaScript. Closing it
// (Escape or Cancel) goes back to the page without the modal in its URL.
import { Link, useNavigate } from '@remix-run/react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useHydrated } from '#web/lib/hydrated';

export function AdminModal({
  title,
  closeTo,
  className,
  children,
}: {
  title: string;
  closeTo: string;
  /** A modal of its own size (the run form's is 600 px wide). */
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const shownAsModal = useRef(false);
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!hydrated || !dialog || shownAsModal.current) return;
    if (dialog.open) dialog.close();
    dialog.showModal();
    shownAsModal.current = true;
  }, [hydrated]);

  return (
    <dialog
      ref={ref}
      className={`modal admin-modal${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      open={hydrated ? undefined : true}
      onClose={() => {
        if (shownAsModal.current) navigate(closeTo, { preventScrollReset: true });
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <p className="admin-modal__close">
        <Link to={closeTo} preventScrollReset>
          Cancel
        </Link>
      </p>
    </dialog>
  );
}
