// The one script a public document loads instead of React and the Remix runtime (ADR 35): what
// the server-rendered page cannot do alone. Each part looks for its elements and skips the page
// when they are absent. Built by Vite as its own bundle (root.tsx imports its URL).
import { openDialogs, revealBottomBar, viewMoreInPlace } from './audience-page';
import { watchMenu } from './menu';
import { PAGE_VIEW_ATTRIBUTE, sendPageView } from './page-view';
import { markSending } from './subscribe-form';
import { enhanceWaitlistForm } from './waitlist-form';

for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.menu')) watchMenu(menu);
const pageView = document
  .querySelector(`[${PAGE_VIEW_ATTRIBUTE}]`)
  ?.getAttribute(PAGE_VIEW_ATTRIBUTE);
if (pageView) sendPageView(pageView);

const waitlist = document.querySelector<HTMLFormElement>('form.waitlist');
if (waitlist) enhanceWaitlistForm(waitlist);
for (const form of document.querySelectorAll<HTMLFormElement>('form.subscribe')) markSending(form);

openDialogs();
const bar = document.querySelector<HTMLElement>('.bottom-bar');
if (bar) revealBottomBar(bar);
const cards = document.getElementById('cards');
if (cards) viewMoreInPlace(cards);
