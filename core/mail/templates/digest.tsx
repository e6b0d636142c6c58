// A subscriber's newsletter issue: the stories picked for them, each with why it is there and
// links to its Cluefeed page and its source. The words are composed in core/newsletter;
// this only lays them out in the house style (light and dark).
import { Heading, Section, Text } from '@react-email/components';
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

export async function renderDigestEmail(
  props: DigestEmailProps,
): Promise<Pick<OutgoingMail, 'subject' | 'html' | 'text'>> {
  const html = await render(<DigestEmail {...props} />);
  // As renderEmail, the text comes from the same HTML, with headings in their own case.
  return { subject: props.subject, html, text: digestPlainText(html) };
}
