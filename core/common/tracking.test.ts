import { describe, expect, it } from 'vitest';
import { trackingFrom, withTracking } from '#core/common';

describe('tracking', () => {
  it('keeps valid utm, raud and vus and drops the rest', () => {
    const search = new URLSearchParams('utm=newsletter&raud=defi-builders&vus=zz&other=1');
    expect(trackingFrom(search)).toEqual({ utm: 'newsletter', raud: 'defi-builders' });
  });

  it('adds tracking to a path without overriding its own values', () => {
    expect(withTracking('/p/a?raud=x#top', { utm: 'u', raud: 'y' })).toBe('/p/a?raud=x&utm=u#top');
    expect(withTracking('/about', {})).toBe('/about');
  });
});
