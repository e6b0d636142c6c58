// A subscriber's newsletter issue: the stories picked for them, each with why it is there and
// links to its Cluefeed page and its source. The words are composed in core/newsletter;
// this only lays them out in the house style (light and dark).
import { Heading } from '@react-email/heading';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { render } from '@react-email/render';
import type { OutgoingMail } from '../index';
import { colours, EmailHeading, EmailLayout, EmailLink, EmailText } from '../layout';
import { digestPlainText } from '../plain-text';

const { light } = colours;

export type DigestEmailStory = {
  articleId: string;
  title: string;
  teaser: string;
  postUrl?: string;
  sourceUrl: string;
  sourceLabel: string;
  reasons: string[];
  /** 'updated: N new sources': an earlier issue sent the story with fewer. */
  update?: string;
  /** The story's other sources: 'also covered by N sources' and links to the newest few. */
  alsoCovered?: { label: string; sources: { source: string; url: string }[] };
};

export type DigestEmailProps = {
  subject: string;
  preview: string;
  heading: string;
  intro: string;
  sections: { heading?: string; stories: DigestEmailStory[] }[];
  audiences: { id: string; title: string; url: string }[];
  preferencesUrl: string;
  unsubscribeUrl: string;
};

function Story({ story }: { story: DigestEmailStory }) {
  return (
    <Section style={{ margin: '0 0 28px' }}>
      {story.update && (
        <Text
          className="cf-muted"
          style={{ margin: '0 0 4px', fontSize: '14px', lineHeight: '22px', color: light.muted }}
        >
          <strong>{story.update}</strong>
        </Text>
      )}
      <Heading
        as="h3"
        className="cf-text"
        style={{ margin: '0 0 8px', fontSize: '18px', lineHeight: '26px', color: light.text }}
      >
        <EmailLink href={story.postUrl ?? story.sourceUrl}>{story.title}</EmailLink>
      </Heading>
      {story.teaser && <EmailText>{story.teaser}</EmailText>}
      {story.reasons.map((reason) => (
        <Text
          key={reason}
          className="cf-muted"
          style={{
            margin: '0 0 4px',
            fontSize: '14px',
            lineHeight: '22px',
            fontStyle: 'italic',
            color: light.muted,
          }}
        >
          {reason}
        </Text>
      ))}
      <Text
        className="cf-muted"
        style={{ margin: '8px 0 0', fontSize: '14px', lineHeight: '22px', color: light.muted }}
      >
        <EmailLink href={story.sourceUrl}>{story.sourceLabel}</EmailLink>
      </Text>
      {story.alsoCovered && (
        <Text
          className="cf-muted"
          style={{ margin: '4px 0 0', fontSize: '14px', lineHeight: '22px', color: light.muted }}
        >
          {story.alsoCovered.label}
          {story.alsoCovered.sources.map((other, index) => (
            <span key={other.url}>
              {index === 0 ? ': ' : ' · '}
              <EmailLink href={other.url}>{other.source}</EmailLink>
            </span>
          ))}
        </Text>
      )}
    </Section>
  );
}

export function DigestEmail(props: DigestEmailProps) {
  return (
    <EmailLayout
      title={props.subject}
      preview={props.preview}
      footer={
        <>
          <EmailText muted>
            {'You get this issue because you follow '}
            {props.audiences.map((audience, index) => (
              <span key={audience.id}>
                {index > 0 && (index === props.audiences.length - 1 ? ' and ' : ', ')}
                <EmailLink href={audience.url}>{`those who ${audience.title}`}</EmailLink>
              </span>
            ))}
            {'.'}
          </EmailText>
          <EmailText muted>
            <EmailLink href={props.preferencesUrl}>Manage preferences</EmailLink>
            {' · '}
            <EmailLink href={props.unsubscribeUrl}>Unsubscribe</EmailLink>
          </EmailText>
        </>
      }
    >
      <EmailHeading>{props.heading}</EmailHeading>
      <EmailText muted>{props.intro}</EmailText>
      {props.sections.map((section, index) => (
        <Section key={section.heading ?? index} style={{ margin: '24px 0 0' }}>
          {section.heading && (
            <Heading
              as="h2"
              className="cf-text"
              style={{
                margin: '0 0 16px',
                fontSize: '20px',
                lineHeight: '28px',
                color: light.text,
              }}
            >
              {section.heading}
            </Heading>
          )}
          {section.stories.map((story) => (
            <Story key={story.articleId} story={story} />
          ))}
        </Section>
      ))}
    </EmailLayout>
  );
}

/**
 * A subscriber's issue. Readers of the same audiences get the same issue but for their links
 * (signed per subscriber), so each distinct issue's HTML is rendered once, with a placeholder for
 * every link, and each e-mail fills in its own. The text is made from the filled HTML, as for an
 * e-mail rendered alone: how a link reads in text depends on the link itself.
 */
export async function renderDigestEmail(
  props: DigestEmailProps,
): Promise<Pick<OutgoingMail, 'subject' | 'html' | 'text'>> {
  const { layout, links } = withPlaceholders(props);
  const key = JSON.stringify(layout);
  let kept = rendered.get(key);
  if (kept === undefined) {
    kept = await render(<DigestEmail {...layout} />);
    rendered.set(key, kept);
    if (rendered.size > KEPT_RENDERS) rendered.delete(rendered.keys().next().value!);
  }
  const html = kept.replace(placeholders, (_, index: string) => escapeHtml(links[Number(index)]!));
  return { subject: props.subject, html, text: digestPlainText(html) };
}

/** Renders one issue as it is, links and all (what the kept renders must match). */
export async function renderEach(props: DigestEmailProps) {
  const html = await render(<DigestEmail {...props} />);
  // As renderEmail, the text comes from the same HTML, with headings in their own case.
  return { html, text: digestPlainText(html) };
}

/**
 * Distinct issues kept rendered, the oldest dropped first. Issues differ by the reader's audiences
 * and by what earlier issues sent them.
 */
const KEPT_RENDERS = 32;
const rendered = new Map<string, string>();
// A number only this process knows, so no story's own text can pass for a placeholder.
const nonce = globalThis.crypto.randomUUID().slice(0, 8);
const placeholders = new RegExp(`https://link-${nonce}-(\\d+)\\.invalid/`, 'g');

/** The issue with each link replaced by a numbered placeholder, and the links in that order. */
function withPlaceholders(props: DigestEmailProps) {
  const links: string[] = [];
  const hold = (url: string) => `https://link-${nonce}-${links.push(url) - 1}.invalid/`;
  const layout: DigestEmailProps = {
    ...props,
    sections: props.sections.map((section) => ({
      ...section,
      stories: section.stories.map((story) => ({
        ...story,
        ...(story.postUrl && { postUrl: hold(story.postUrl) }),
        sourceUrl: hold(story.sourceUrl),
        ...(story.alsoCovered && {
          alsoCovered: {
            ...story.alsoCovered,
            sources: story.alsoCovered.sources.map((other) => ({ ...other, url: hold(other.url) })),
          },
        }),
      })),
    })),
    audiences: props.audiences.map((audience) => ({ ...audience, url: hold(audience.url) })),
    preferencesUrl: hold(props.preferencesUrl),
    unsubscribeUrl: hold(props.unsubscribeUrl),
  };
  return { layout, links };
}

/**
 * As React 18 writes text and attribute values into HTML. It writes every URL as given (a later
 * React that refuses `javascript:` links would differ here; digest-render.test.ts compares).
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};
