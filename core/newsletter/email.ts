// A digest as the outbox's 'digest' e-mail: only what the template renders. The issue's own
// e-mail carries the subscriber's signed footer links and one-click headers; a preview or a
// test send carries links that act on nobody, so a test recipient cannot unsubscribe the
// subscriber whose issue they were shown.
import { config } from '#core/config';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { clickUrl } from './clicks';
// Whatever makes a digest e-mail also tells the outbox how to deliver and settle one.
import './digest-kind';
import type { Digest, DigestStory } from './digest';

type Links = { preferencesUrl: string; unsubscribeUrl: string };
/** How a story's links are written: as they are (previews), or through the click redirect. */
type StoryLink = (story: DigestStory, url: string) => string;

const asTheyAre: StoryLink = (_story, url) => url;

export function digestProps(digest: Digest, links: Links, link: StoryLink = asTheyAre) {
  return {
    subject: digest.subject,
    preview: digest.preview,
    heading: digest.heading,
    intro: digest.intro,
    sections: digest.sections.map((section) => ({
      heading: section.heading,
      stories: section.stories.map((story) => ({
        articleId: story.articleId,
        title: story.title,
        teaser: story.teaser,
        postUrl: story.postUrl && link(story, story.postUrl),
        sourceUrl: link(story, story.sourceUrl),
        sourceLabel: story.sourceLabel,
        reasons: story.reasons,
        ...(story.update && { update: story.update }),
        ...(story.alsoCovered && {
          alsoCovered: {
            label: story.alsoCovered.label,
            sources: story.alsoCovered.sources.map((other) => ({
              source: other.source,
              url: link(story, other.url),
            })),
          },
        }),
      })),
    })),
    audiences: digest.audiences,
    preferencesUrl: links.preferencesUrl,
    unsubscribeUrl: links.unsubscribeUrl,
  };
}

/** Footer links for a preview or a test: the pages themselves, with no subscriber's token. */
export function inertLinks(): Links {
  const base = config().PUBLIC_URL;
  return {
    preferencesUrl: new URL('/subscription', base).toString(),
    unsubscribeUrl: new URL('/unsubscribe', base).toString(),
  };
}

/**
 * The issue's e-mail to its subscriber, settled with their Delivery of `issueId`, written claimed
 * by the send that sends it. Its story links
 * go through the signed click redirect, which counts clicks per issue and story (no pixels).
 */
export function digestEmail(issueId: string, subscriber: Subscribers.Subscriber, digest: Digest) {
  const tracked: StoryLink = (story, url) =>
    clickUrl({ issueId, subscriberId: subscriber.id, articleId: story.articleId, url });
  return Outbox.draft('digest', {
    to: subscriber.email,
    props: digestProps(digest, Subscribers.subscriberLinks(subscriber), tracked),
    headers: Subscribers.unsubscribeHeaders(subscriber),
    subscriber,
    issueId,
    // The send writes it claimed and sends it at once (core/newsletter/send.ts).
    claimed: true,
  });
}
