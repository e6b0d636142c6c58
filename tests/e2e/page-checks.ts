// What every page must pass at both widths, measured in the page from its real computed styles:
// no sideways scroll, and WCAG AA contrast for every visible control (4.5:1 for its text, 3:1 for
// large text and for a form field's border, the part that shows where the field is).
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The two widths the product is tried at: a laptop and a phone. */
export const WIDTHS = [1280, 390] as const;

/**
 * Waits until every stylesheet the page links has loaded. A script's measure forces a layout even
 * while a sheet is still on its way, which a person never sees (the browser paints nothing before
 * it), so a measure taken then is of an unstyled page.
 */
export async function stylesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every(
      (link) => link.sheet !== null,
    ),
  );
}

/** How far the page scrolls sideways (0 when it fits the window). */
export async function sidewaysOverflow(page: Page): Promise<number> {
  await stylesLoaded(page);
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Every visible, enabled control whose contrast is below WCAG AA, one line each. Disabled
 * controls are exempt (WCAG 1.4.3); native checkboxes and radios are drawn by the browser.
 */
export async function contrastProblems(page: Page): Promise<string[]> {
  await stylesLoaded(page);
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const CONTROLS =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]';
    const FIELDS =
      'input:not([type="checkbox"], [type="radio"], [type="submit"], [type="button"]), select, textarea';

    function parse(color: string): Rgba {
      const parts = color.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    }
    /** `top` painted over the opaque `bottom`. */
    function over(top: Rgba, bottom: Rgba): Rgba {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1) as Rgba;
    }
    function luminance([r, g, b]: Rgba): number {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    }
    function ratio(a: Rgba, b: Rgba): number {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    }
    /**
     * The opaque colour behind an element: its own and its ancestors' backgrounds painted from
     * the page (white canvas) up. Undefined behind an image, whose colours cannot be known.
     */
    function background(element: Element | null): Rgba | undefined {
      const layers: Rgba[] = [];
      for (let node = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== 'none') return undefined;
        const color = parse(style.backgroundColor);
        if (color[3] > 0) layers.push(color);
        if (color[3] === 1) break;
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
    }
    /** The product of the element's and its ancestors' opacity. */
    function opacity(element: Element): number {
      let product = 1;
      for (let node: Element | null = element; node; node = node.parentElement) {
        product *= Number(getComputedStyle(node).opacity);
      }
      return product;
    }
    function describe(element: Element): string {
      const name =
        element.getAttribute('aria-label') ??
        (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const classes = element.classList.length ? `.${[...element.classList].join('.')}` : '';
      return `<${element.tagName.toLowerCase()}${classes}> "${name}"`;
    }
    const visible = (element: Element) =>
      element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
      element.getClientRects().length > 0;
    const disabled = (element: Element) =>
      element.matches(':disabled') || element.getAttribute('aria-disabled') === 'true';

    const problems: string[] = [];
    const checkedText = new Set<Element>();
    for (const control of document.querySelectorAll(CONTROLS)) {
      if (!visible(control) || disabled(control) || control.closest('[inert]')) continue;
      // The text: every element inside the control that holds some, in its own colour.
      const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const holder = text.parentElement;
        if (!holder || checkedText.has(holder) || !text.textContent?.trim() || !visible(holder)) {
          continue;
        }
        checkedText.add(holder);
        const behind = background(holder);
        if (!behind) continue;
        const style = getComputedStyle(holder);
        const color = parse(style.color);
        const ink = over([color[0], color[1], color[2], color[3] * opacity(holder)], behind);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        const needed = large ? 3 : 4.5;
        const measured = ratio(ink, behind);
        if (measured < needed) {
          problems.push(
            `${describe(control)} text ${style.color} on ${`rgb(${behind.slice(0, 3).join(', ')})`}: ${measured.toFixed(2)}:1, needs ${needed}:1`,
          );
        }
      }
      // A field's border against what surrounds it, unless its own background stands out.
      if (control.matches(FIELDS)) {
        const outside = background(control.parentElement);
        const inside = background(control);
        if (!outside || !inside) continue;
        const style = getComputedStyle(control);
        const border = over(parse(style.borderTopColor), inside);
        const width = parseFloat(style.borderTopWidth);
        const best = Math.max(width > 0 ? ratio(border, outside) : 1, ratio(inside, outside));
        if (best < 3) {
          problems.push(
            `${describe(control)} border ${style.borderTopColor} on rgb(${outside.slice(0, 3).join(', ')}): ${best.toFixed(2)}:1, needs 3:1`,
          );
        }
      }
    }
    return problems;
  });
}

/** The page at each width: it fits the window and its controls can be read. */
export async function expectFitsAndReadable(page: Page, label = page.url()) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    expect
      .soft(await sidewaysOverflow(page), `${label} at ${width} px scrolls sideways by`)
      .toBeLessThanOrEqual(0);
    expect
      .soft(await contrastProblems(page), `${label} at ${width} px: low-contrast controls`)
      .toEqual([]);
  }
}

/** Every descendant of a Content Automations card that reaches outside the card, one line each. */
export function spillingOutOfCards(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.automation')].flatMap((card) => {
      const outer = card.getBoundingClientRect();
      const name = card.querySelector('h2')?.textContent ?? '?';
      return [...card.querySelectorAll('*')]
        .filter((element) => element.getClientRects().length > 0)
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.left < outer.left - 0.5 || box.right > outer.right + 0.5;
        })
        .map((element) => `${name}: <${element.tagName.toLowerCase()}> "${element.textContent}"`);
    }),
  );
}
