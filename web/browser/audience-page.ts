// The audience page in the browser: 'What to expect' opens its modal, the bottom bar shows once the
// visitor has scrolled past 800 pixels, and 'View more' adds the next page of cards below the ones
// shown. Without script each opener is a link (?expect=1, ?after=...) that the server answers.

export const BOTTOM_BAR_REVEAL_PX = 800;
/** As many as the server reads (core/content-cards' MAX_SHOWN_STORIES). */
const SHOWN_STORIES_SENT = 100;

function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** Links and buttons marked `data-opens="{dialog id}"` open that dialog as a modal. */
export function openDialogs(): void {
  // Rendered open by the server (?expect=1): the same dialog, now as a modal.
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog[open]')) {
    dialog.close();
    dialog.showModal();
  }
  document.addEventListener('click', (event) => {
    const opener = (event.target as Element).closest<HTMLElement>('[data-opens]');
    const dialog = opener && document.getElementById(opener.dataset.opens ?? '');
    if (!(dialog instanceof HTMLDialogElement) || !plainClick(event)) return;
    event.preventDefault();
    dialog.showModal();
  });
}

/** The bar stays as the server rendered it (shown with an error it answered) until a scroll. */
export function revealBottomBar(bar: HTMLElement): void {
  const update = () => {
    bar.hidden = window.scrollY <= BOTTOM_BAR_REVEAL_PX;
  };
  if (bar.hidden) update();
  window.addEventListener('scroll', update, { passive: true });
}

/** 'View more' fetches the next page and moves its cards into `list`, in the order they came. */
export function viewMoreInPlace(list: HTMLElement): void {
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-view-more]');
    if (!link || !plainClick(event)) return;
    event.preventDefault();
    if (link.getAttribute('aria-disabled') === 'true') return;
    link.setAttribute('aria-disabled', 'true');
    void showNextPage(list, link);
  });
}

async function showNextPage(list: HTMLElement, link: HTMLAnchorElement): Promise<void> {
  try {
    // The stories shown already, so the next cards leave them out (one card per story).
    // The last ones shown: the next cards, just before them in time, are the ones that repeat.
    const shown = [...list.querySelectorAll<HTMLElement>('[data-story]')]
      .map((story) => story.dataset.story)
      .slice(-SHOWN_STORIES_SENT);
    const url = new URL(link.href);
    url.searchParams.set('shown', shown.join(','));
    const response = await fetch(url, { headers: { Accept: 'text/html' } });
    if (!response.ok) throw new Error(`View more answered ${response.status}`);
    // An inert template: the page's styles and scripts are neither applied nor run.
    const page = document.createElement('template');
    page.innerHTML = await response.text();
    list.append(...page.content.querySelectorAll(`#${list.id} > li`));
    const next = page.content.querySelector<HTMLAnchorElement>('a[data-view-more]');
    if (next) {
      link.href = next.href;
      link.removeAttribute('aria-disabled');
    } else {
      link.remove();
    }
  } catch {
    // The page the link names shows the same cards.
    window.location.assign(link.href);
  }
}
