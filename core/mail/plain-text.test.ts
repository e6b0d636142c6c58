import { toPlainText } from '@react-email/render';
import { describe, expect, it } from 'vitest';
import { renderDigestEmail } from './templates/digest';
import { renderConfirmSubscription } from './templates/confirm-subscription';
import { digestPlainText, plainText } from './plain-text';

const story = (n: number) => ({
  articleId: `a${n}`,
  title: `Five invariants every lending protocol should fuzz ${n}`,
  teaser: 'A short teaser about a lending protocol and what its auditors found. '.repeat(3),
  postUrl: `https://cluefeed.test/p/story-${n}`,
  sourceUrl: `https://news.example.org/story-${n}`,
  sourceLabel: 'Original at news.example.org',
  reasons: ['Because you follow those who build DeFi protocols'],
});

describe('plain-text parts', () => {
  it('are what @react-email/render makes of the same HTML, with options compiled once', async () => {
    const digest = await renderDigestEmail({
      subject: 'Your daily Cluefeed',
      preview: 'Two stories',
      heading: 'Your daily Cluefeed',
      intro: 'Two stories for you today.',
      sections: [{ heading: 'For those who build DeFi protocols', stories: [story(1), story(2)] }],
      audiences: [{ id: 'x', title: 'build DeFi protocols', url: 'https://cluefeed.test/a/x' }],
      preferencesUrl: 'https://cluefeed.test/subscription?t=1',
      unsubscribeUrl: 'https://cluefeed.test/unsubscribe?t=1',
    });
    expect(digest.text).toBe(
      toPlainText(digest.html, {
        selectors: ['h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false } })),
      }),
    );
    // Headings keep their case; links are written out; images are left out.
    expect(digest.text).toContain('For those who build DeFi protocols');
    expect(digest.text).toContain('https://news.example.org/story-2');
    expect(digestPlainText(digest.html)).toBe(digest.text);

    const confirm = await renderConfirmSubscription({
      audiences: [{ title: 'build DeFi protocols', frequency: 'daily' }],
      confirmUrl: 'https://cluefeed.test/confirm-subscription?subscriberHash=abc',
      preferencesUrl: 'https://cluefeed.test/subscription?t=1',
      unsubscribeUrl: 'https://cluefeed.test/unsubscribe?t=1',
    });
    expect(confirm.text).toBe(toPlainText(confirm.html));
    expect(plainText(confirm.html)).toBe(confirm.text);
  });
});
