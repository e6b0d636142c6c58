import { describe, expect, it } from 'vitest';
import { referrerWithoutTokens, trackingFrom, withTracking } from '#core/common';

describe('tracking', () => {
  it('keeps valid utm, raud and vus and drops the rest', () => {
    const search = new URLSearchParams('utm=newsletter&raud=defi-builders&vus=zz&other=1');
    expect(trackingFrom(search)).toEqual({ utm: 'newsletter', raud: 'defi-builders' });
  });

  it('adds tracking to a path without overriding its own values', () => {
    expect(withTracking('/p/a?raud=x#top', { utm: 'u', raud: 'y' })).toBe('/p/a?raud=x&utm=u#top');
    expect(withTracking('/about', {})).toBe('/about');
  });

  it('strips tokens, credentials and the fragment from a referrer and keeps tracking values', () => {
    expect(
      referrerWithoutTokens(
        'https://user:pw@cluefeed.example/assemble-your-newsletter?slug=defi&subscriberHash=abc.def&token=t0k&utm=mail#top',
      ),
    ).toBe('https://cluefeed.example/assemble-your-newsletter?utm=mail');
    expect(referrerWithoutTokens('https://news.example/story')).toBe('https://news.example/story');
    expect(referrerWithoutTokens('javascript:alert(1)')).toBeUndefined();
    expect(referrerWithoutTokens('not a url')).toBeUndefined();
  });
});
