// What a newcomer meets when they leave the funnel and come back (issue 16), on a desktop and on a
// phone: each step is a history entry (Back goes one step back), what they typed survives a
// reload and a reopened invitation (kept on the server, nothing in the browser's storage), the
// local curator says back clues and stops at 'No, that covers it', the confirmation's clues can be
// edited and deleted there, the thank-you offers 'Sign in' and the promised e-mail comes with the
// sign-in link, and a reopened link of a reader who signed up offers 'Sign in' instead of a trap.
import type { Locator, Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as SentenceStarters from '#core/sentence-starters';
import * as Users from '#core/users';
import { expect, offlineImages, test } from './fixtures';
import { clueTexts, evaluate, heading, storiesAbout } from './funnel-steps';
import { messageTo, pathOfLink } from './mail';
import { stylesLoaded } from './page-checks';

async function invitedLink(variant: '' | 'ip') {
  const user = await Users.create({
    name: `Returning ${variant || 'default'}`,
    email: `return-${ulid().toLowerCase()}@example.org`,
  });
  const landing = `${process.env.PUBLIC_URL}/get-started${variant ? `?vus=${variant}` : ''}`;
  const link = new URL(Users.invitationLink(landing, { id: user.id, invitationVersion: 0 }));
  return { user, path: `${link.pathname}${link.search}` };
}

/** The reader's draft as the server keeps it (the page saves as it goes: poll for it). */
async function draftOf(userId: string): Promise<unknown> {
  const json = (await Users.byId(userId))?.signupDraft;
  return json ? JSON.parse(json) : undefined;
}

/** None of what the reader typed is in the browser's storage or cookies (Remix keeps scroll positions). */
async function nothingTypedInTheBrowser(page: Page, typed: string) {
  const stored = await page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key)}`),
    ),
  );
  expect(stored.filter((item) => item.includes(typed))).toEqual([]);
  expect(await page.context().cookies()).toEqual([]);
}

async function fitsTheScreen(page: Page, width: number) {
  await stylesLoaded(page);
  const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(scrollWidth, 'page width').toBeLessThanOrEqual(width);
}

/** WCAG contrast of an element's text against the background it sits on. */
async function contrastOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
    const background = (from: Element | null): number[] => {
      for (let at = from; at; at = at.parentElement) {
        const [r, g, b, a = 1] = rgb(getComputedStyle(at).backgroundColor);
        if (a > 0) return [r!, g!, b!];
      }
      return [255, 255, 255];
    };
    const luminance = ([r, g, b]: number[]) => {
      const [lr, lg, lb] = [r!, g!, b!].map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
    };
    const text = luminance(rgb(getComputedStyle(node).color));
    const behind = luminance(background(node));
    return (Math.max(text, behind) + 0.05) / (Math.min(text, behind) + 0.05);
  });
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('Back goes one step back, and what the reader typed survives a reload and a reopened invitation', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const { user, path } = await invitedLink('');
      await page.goto(path);
      await expect(heading(page, 'Welcome on board!')).toBeVisible();
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
      await expect(page).toHaveURL(/[?&]step=starters/);

      // The browser's Back (a phone's swipe) goes one step back, never off the site.
      await page.getByRole('button', { name: 'I build...' }).click();
      await expect(heading(page, 'I build...')).toBeVisible();
      await page.goBack();
      await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
      await page.goBack();
      await expect(heading(page, 'Welcome on board!')).toBeVisible();
      await page.goForward();
      await expect(heading(page, 'Tell us a few things about you')).toBeVisible();

      await page.getByRole('button', { name: 'I trade...' }).click();
      await evaluate(page, 'perpetual futures on Arbitrum and Hyperliquid');
      await page.getByRole('button', { name: 'Add' }).click();
      await expect
        .poll(() => draftOf(user.id))
        .toMatchObject({ step: 'starters', entries: [{ finalized: true }] });
      // The list saves again as it settles (no entry being built): the reload below comes after
      // that save, not while it is on its way (that is the next journey's case).
      await expect
        .poll(async () => ((await draftOf(user.id)) as { currentId?: string }).currentId)
        .toBeUndefined();
      const firstClue = 'I trade perpetual futures on Arbitrum and Hyperliquid';
      await expect(page.getByText('You need to select one more')).toBeVisible();
      const edit = page.getByRole('button', { name: `Edit ${firstClue}` });
      await expect(edit).toBeVisible();
      expect(await contrastOf(edit), 'Edit on its row').toBeGreaterThanOrEqual(4.5);
      expect(
        await contrastOf(page.getByRole('button', { name: `Delete ${firstClue}` })),
        'Delete on its row',
      ).toBeGreaterThanOrEqual(4.5);

      // A reload keeps the clue.
      await page.reload();
      await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
      expect(await clueTexts(page)).toEqual([firstClue]);

      // Half-way through the next entry: the typed descriptor survives a reload...
      await page.getByRole('button', { name: 'I build...' }).click();
      await page.getByRole('button', { name: 'I build protocols for' }).click();
      const descriptor = page.locator('textarea[name="descriptor"]');
      await descriptor.fill('lending with isolated markets');
      await expect
        .poll(() => draftOf(user.id))
        .toMatchObject({
          step: 'descriptor',
          entries: [{}, { name: 'lending with isolated markets' }],
        });
      await page.reload();
      await expect(descriptor).toHaveValue('lending with isolated markets');
      await expect(page.getByText('I build protocols for...')).toBeVisible();

      // ...and the invitation opened again from the e-mail goes on where the reader was.
      await page.goto(path);
      await expect(page).toHaveURL(/[?&]step=descriptor/);
      await expect(descriptor).toHaveValue('lending with isolated markets');
      await fitsTheScreen(page, viewport.width);
      // The page's Back follows the same steps: the pointer, then the list with the first clue.
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(heading(page, 'I build...')).toBeVisible();
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
      expect(await clueTexts(page)).toEqual([firstClue]);
      await fitsTheScreen(page, viewport.width);

      // Kept on the server against the invitation; nothing in the browser's storage.
      await nothingTypedInTheBrowser(page, 'perpetual futures');
      await expect
        .poll(() => draftOf(user.id))
        .toMatchObject({
          step: 'starters',
          entries: [{ name: 'perpetual futures on Arbitrum and Hyperliquid', finalized: true }],
        });
    });

    test('what the reader typed just before a reload comes back; only another window is a conflict', async ({
      page,
    }) => {
      const { user, path } = await invitedLink('');
      await page.goto(path);
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('button', { name: 'I build...' }).click();
      // Arriving at the descriptor is saved at once; the page has its answer before the reader
      // types (a change made while a save is on its way misses it if that save arrives first).
      const arrived = page.waitForResponse(
        (response) =>
          response.url().endsWith('/save-draft') &&
          (response.request().postData() ?? '').includes('"step":"descriptor"'),
      );
      await page.getByRole('button', { name: 'I build protocols for' }).click();
      await (await arrived).finished();

      // Reloaded within the moment typing waits before a save: the text leaves with the page,
      // after the new page's loader read the draft; the new page shows it all the same. (It
      // reaches the server while the new page loads: the page's second read is held until then,
      // so that the journey does not depend on how fast the machine runs the new page. Only that
      // request is held: page.route would hold every request, the one with the text too.)
      const descriptor = page.locator('textarea[name="descriptor"]');
      let left = 'lending with isolated markets';
      /** Told of a save the journey cuts off (it never reaches the server). */
      let cutOff = () => {};
      const browser = await page.context().newCDPSession(page);
      await browser.send('Fetch.enable', {
        patterns: [{ urlPattern: '*/get-started/read-draft' }],
      });
      browser.on('Fetch.requestPaused', async ({ requestId, request }) => {
        if (request.url.endsWith('/save-draft')) return cutOff();
        await expect.poll(() => draftOf(user.id)).toMatchObject({ entries: [{ name: left }] });
        await browser.send('Fetch.continueRequest', { requestId });
      });
      await descriptor.fill(left);
      await page.reload();
      await expect(descriptor).toHaveValue('lending with isolated markets');
      await fitsTheScreen(page, viewport.width);

      // Another window opened now reads the same draft.
      const other = await page.context().newPage();
      const read = other.waitForResponse((response) => response.url().endsWith('/read-draft'));
      await other.goto(path);
      await read;
      const elsewhere = other.locator('textarea[name="descriptor"]');
      await expect(elsewhere).toHaveValue('lending with isolated markets');

      // Going on typing is saved: the text that left with the page is not another window's.
      await descriptor.fill('lending with isolated markets on Base');
      await expect
        .poll(() => draftOf(user.id))
        .toMatchObject({ entries: [{ name: 'lending with isolated markets on Base' }] });
      await expect(page.getByRole('alert')).toHaveText('');

      // The other window, which read the draft before that save, is told, and changes nothing.
      await elsewhere.fill('lending on Solana');
      await expect(other.getByRole('alert')).toHaveText(
        'Your profile was changed in another window. Please reload the page to continue from there.',
      );
      expect(await draftOf(user.id)).toMatchObject({
        entries: [{ name: 'lending with isolated markets on Base' }],
      });

      // A save on its way when the page goes, cut off before it reaches the server (held here,
      // the reload cancels it): what it took leaves with the page all the same.
      left = 'lending with isolated markets on Base and Arbitrum';
      const onItsWay = new Promise<void>((resolve) => (cutOff = resolve));
      await browser.send('Fetch.enable', {
        patterns: [
          { urlPattern: '*/get-started/read-draft' },
          { urlPattern: '*/get-started/save-draft', resourceType: 'Fetch' },
        ],
      });
      await descriptor.fill(left);
      await onItsWay;
      await page.reload();
      await expect(descriptor).toHaveValue(left);
      await nothingTypedInTheBrowser(page, 'isolated markets');
    });

    test('a save that reaches the server while the page loads is taken, not saved over', async ({
      page,
    }) => {
      const { user, path } = await invitedLink('');
      const token = new URL(path, 'http://localhost').searchParams.get('user')!;
      await Users.checkSignupStatus({ token, email: user.email });
      const build = (await SentenceStarters.list()).find((starter) => starter.name === 'I build')!;
      const clue = (id: string, name: string) => ({
        id,
        name,
        starterId: build.id,
        pointer: { name: 'protocols for' },
        rank: 'HIGH' as const,
        suggestions: [],
        finalized: true,
        isEditMode: false,
        submitted: name,
      });
      // Saved on the way to the list: the entry just added is still named as the one being built,
      // which the page tidies away as it loads (a change of its own, that waits for its read).
      const before = { variant: '' as const, step: 'starters' as const, currentId: 'entry-1' };
      await Users.saveDraft({
        token,
        revision: 0,
        state: { ...before, entries: [clue('entry-1', 'lending markets')] },
      });
      // The page before this one saves once more after this page's loader read the draft.
      const browser = await page.context().newCDPSession(page);
      await browser.send('Fetch.enable', {
        patterns: [{ urlPattern: '*/get-started/read-draft' }],
      });
      browser.on('Fetch.requestPaused', async ({ requestId }) => {
        await Users.saveDraft({
          token,
          revision: 1,
          state: {
            variant: '',
            step: 'starters',
            entries: [clue('entry-1', 'lending markets'), clue('entry-2', 'restaking')],
          },
        });
        await browser.send('Fetch.continueRequest', { requestId });
      });
      await page.goto(path);
      await expect(page).toHaveURL(/[?&]step=starters/);
      await expect
        .poll(() => clueTexts(page))
        .toEqual(['I build protocols for lending markets', 'I build protocols for restaking']);
      // The page builds on that save: what the reader does next is saved, with no conflict.
      await page.getByRole('button', { name: 'Delete I build protocols for restaking' }).click();
      await expect
        .poll(() => draftOf(user.id))
        .toMatchObject({ entries: [{ name: 'lending markets' }] });
      await expect(page.getByRole('alert')).toHaveText('');
      await fitsTheScreen(page, viewport.width);
    });

    test('the curator says back clues and stops at "No, that covers it"; the confirmation edits clues; the thank-you and the e-mail lead to sign-in', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      // It ends on the reader's feed, with stories' images from their publishers' sites.
      await offlineImages(page);
      const { user, path } = await invitedLink('ip');
      await page.goto(path);
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(heading(page, 'Hello, this is your Content Curator')).toBeVisible();
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log).toContainText("I'll ask a few questions", { timeout: 10_000 });
      const message = page.getByLabel('Your message');
      const bubbles = log.getByRole('listitem');
      const say = async (text: string, replies: number) => {
        await message.fill(text);
        await message.press('Enter');
        await expect(bubbles).toHaveCount(replies, { timeout: 15_000 });
      };

      await say('I collect generative art and sit on a market making desk at my fund', 3);
      await expect(bubbles.last()).toHaveText(
        /^Curator: Noted: you collect generative art and sit on a market making desk at your fund\. /,
      );
      await expect(log).not.toContainText('Got it');
      await say('Ethereum and Tezos', 5);
      await say('Founder', 7);
      await say('I also research restaking protocols', 9);
      await say('No, that covers it', 11);
      await expect(bubbles.last()).toHaveText(
        "Curator: Thanks, that's all I need. Choose Complete Interview to see your clues.",
      );
      // The newest message is in view, however long the conversation.
      await expect(bubbles.last()).toBeInViewport();
      await fitsTheScreen(page, viewport.width);

      // A reload keeps the conversation.
      await page.reload();
      await expect(bubbles).toHaveCount(11);
      await expect(bubbles.nth(9)).toHaveText('You: No, that covers it');

      await page.getByRole('button', { name: 'Complete Interview' }).click();
      await expect(heading(page, 'So those are your clues')).toBeVisible();
      const interviewed = [
        'I collect generative art and sit on a market making desk at my fund',
        'I follow Ethereum and Tezos',
        'I am a founder',
        'I research restaking protocols',
      ];
      expect(await clueTexts(page)).toEqual(interviewed);

      // Edited and deleted right there; an empty edit is refused.
      await page.getByRole('button', { name: `Edit ${interviewed[0]}` }).click();
      const field = page.getByRole('textbox', { name: 'Edit your clue' });
      await expect(field).toBeFocused();
      await field.fill('  ');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('A clue cannot be empty')).toBeVisible();
      await field.fill('I collect generative art on Tezos');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: `Delete ${interviewed[2]}` }).click();
      const confirmed = [
        'I collect generative art on Tezos',
        'I follow Ethereum and Tezos',
        'I research restaking protocols',
      ];
      expect(await clueTexts(page)).toEqual(confirmed);
      await fitsTheScreen(page, viewport.width);
      await expect
        .poll(() => draftOf(user.id))
        .toMatchObject({ step: 'clues', review: { clues: confirmed } });

      // The edits survive a reload, and Back and Forward.
      await page.reload();
      expect(await clueTexts(page)).toEqual(confirmed);
      await page.goBack();
      await expect(heading(page, 'Hello, this is your Content Curator')).toBeVisible();
      await page.goForward();
      await expect(heading(page, 'So those are your clues')).toBeVisible();
      expect(await clueTexts(page)).toEqual(confirmed);
      await nothingTypedInTheBrowser(page, 'generative art');

      await storiesAbout(confirmed);
      await page.getByRole('button', { name: 'Complete Profile' }).click();
      await page.getByLabel('Password', { exact: true }).fill('returning pass 1');
      await page.getByLabel('Confirm password').fill('returning pass 1');
      await page.getByRole('button', { name: 'Get Started' }).click();
      await expect(heading(page, 'Thank you :)')).toBeVisible();
      await expect(
        page.getByText("You'll receive an email when your newsfeed is ready"),
      ).toBeVisible();
      const stored = (await Users.byId(user.id))!;
      expect(stored.descriptors?.map((descriptor) => descriptor.clue)).toEqual(confirmed);
      expect(stored.signupDraft).toBeUndefined();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/login$/);

      // The promised e-mail comes once the first stories are scored, with the sign-in link.
      const ready = await messageTo(user.email, 'Your Cluefeed newsfeed is ready');
      await page.goto(pathOfLink(ready, '/login'));
      await page.getByLabel('E-mail or username').fill(user.email);
      await page.getByLabel('Password').fill('returning pass 1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/feed$/);

      // The invitation opened again says the reader is done, and offers 'Sign in', no address box.
      await page.goto(path);
      await expect(heading(page, 'Welcome back!')).toBeVisible();
      await expect(
        page.getByText('You have already completed your profile. Please sign in.'),
      ).toBeVisible();
      await expect(page.getByLabel('Enter your email to get started...')).toHaveCount(0);
      await expect(page.getByRole('alert')).toHaveText('');
      await fitsTheScreen(page, viewport.width);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/(login|feed)$/);
    });
  });
}
