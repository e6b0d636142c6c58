// The e-mail the funnel's last screen promises: the reader's first stories are picked, and the
// link to sign in and read them.
import { Section } from '@react-email/section';
import type { OutgoingMail } from '../index';
import { EmailButton, EmailLayout, EmailLink, EmailText, renderEmail } from '../layout';

export const FEED_READY_SUBJECT = 'Your Cluefeed newsfeed is ready';

export type FeedReadyProps = {
  name: string;
  /** The sign-in page (/login) on the product's public address. */
  loginUrl: string;
};

export function FeedReadyEmail({ name, loginUrl }: FeedReadyProps) {
  return (
    <EmailLayout title={FEED_READY_SUBJECT} preview="Your first stories are picked.">
      <EmailText>{`Hi ${name},`}</EmailText>
      <EmailText>
        Your newsfeed is ready: we picked the first stories for the clues you gave us. Sign in with
        your email address and the password you chose to read them.
      </EmailText>
      <Section style={{ margin: '24px 0' }}>
        <EmailButton href={loginUrl}>Sign in</EmailButton>
      </Section>
      <EmailText muted>
        If the button does not work, paste this link into your browser:{' '}
        <EmailLink href={loginUrl}>{loginUrl}</EmailLink>
      </EmailText>
    </EmailLayout>
  );
}

export async function renderFeedReady(
  props: FeedReadyProps,
): Promise<Pick<OutgoingMail, 'subject' | 'html' | 'text'>> {
  const { html, text } = await renderEmail(<FeedReadyEmail {...props} />);
  return { subject: FEED_READY_SUBJECT, html, text };
}
