import { describe, expect, it } from 'vitest';
import { renderDigestEmail, renderEach, type DigestEmailProps } from './templates/digest';

/** One issue, with links signed for `subscriber` (as the click redirect and footer sign them). */
function issueFor(subscriber: string): DigestEmailProps {
  const signed = (path: string) =>
    `https://cluefeed.example/${path}?s=${subscriber}&sig=a'b"c<d>&n=${encodeURIComponent('é x')}`;
  return {
    subject: 'Your daily Cluefeed',
    preview: 'Three stories',
    heading: 'Your daily Cluefeed',
    intro: 'What builders read today. https://link-0.invalid/ stays as written.',
    sections: [
      {
        heading: 'DeFi protocol builders',
        stories: [
          {
            articleId: 'a1',
            title: 'A lending protocol & its "invariants"',
            teaser: 'Five invariants <fuzzed>.',
            postUrl: signed('c/a1/post'),
            sourceUrl: signed('c/a1/source'),
            sourceLabel: 'Chainwire',
            reasons: ['You build lending protocols'],
            update: 'updated: 2 new sources',
            alsoCovered: {
              label: 'also covered by 2 sources',
              sources: [
                { source: 'Blocknotes', url: signed('c/a1/other-1') },
                { source: 'The Block', url: signed('c/a1/other-2') },
              ],
            },
          },
          {
            articleId: 'a2',
            title: 'Sequencer outage',
            teaser: 'Base paused.',
            sourceUrl: signed('c/a2/source'),
            sourceLabel: 'Blocknotes',
            reasons: [],
          },
        ],
      },
    ],
    audiences: [
      { id: 'defi', title: 'DeFi protocol builders', url: 'https://cluefeed.example/a/defi' },
    ],
    preferencesUrl: signed('subscription'),
    unsubscribeUrl: signed('unsubscribe'),
  };
}

describe('a digest e-mail rendered once per issue', () => {
  it('is, for every subscriber, the e-mail rendered for them alone, links and all', async () => {
    for (const subscriber of ['s-1', 's-2', 's-3']) {
      const props = issueFor(subscriber);
      const alone = await renderEach(props);
      expect(await renderDigestEmail(props)).toEqual({ subject: props.subject, ...alone });
      expect(alone.html).toContain(`s=${subscriber}&amp;sig=a&#x27;b&quot;c&lt;d&gt;`);
      expect(alone.text).toContain(`https://cluefeed.example/unsubscribe?s=${subscriber}&sig=`);
    }
  });

  it('is the e-mail rendered alone for links a preview may carry: mailto, spaces, script, a title that is its link', async () => {
    const props = issueFor('s-4');
    const story = props.sections[0]!.stories[1]!;
    const odd = {
      ...props,
      sections: [
        {
          stories: [
            { ...story, title: 'https://feed.example/raw', sourceUrl: 'https://feed.example/raw' },
            { ...story, articleId: 'a3', sourceUrl: 'mailto:editor@feed.example' },
            {
              ...story,
              articleId: 'a4',
              postUrl: 'https://feed.example/a   b',
              sourceUrl: 'javascript:alert(1)',
            },
          ],
        },
      ],
    };
    expect(await renderDigestEmail(odd)).toEqual({
      subject: odd.subject,
      ...(await renderEach(odd)),
    });
  });

  it('renders a changed issue anew', async () => {
    const props = issueFor('s-1');
    const changed = { ...props, intro: 'Another day.' };
    await renderDigestEmail(props);
    const { html } = await renderDigestEmail(changed);
    expect(html).toContain('Another day.');
    expect(html).toEqual((await renderEach(changed)).html);
  });
});
