// The double opt-in e-mail: nothing is sent to an address until its owner clicks through here.
import { Section } from '@react-email/section';
import type { OutgoingMail } from '../index';
import {
  colours,
  EmailButton,
  EmailHeading,
  EmailLayout,
  EmailLink,
  EmailText,
  renderEmail,
} from '../layout';

export const CONFIRM_SUBSCRIPTION_SUBJECT = 'Confirm your Cluefeed subscription';

export type ConfirmSubscriptionProps = {
  audiences: { title: string; frequency: 'daily' | 'weekly' }[];
  confirmUrl: string;
  preferencesUrl: string;
  unsubscribeUrl: string;
};

export function ConfirmSubscriptionEmail({
  audiences,
  confirmUrl,
  preferencesUrl,
  unsubscribeUrl,
}: ConfirmSubscriptionProps) {
  return (
    <EmailLayout
      title={CONFIRM_SUBSCRIPTION_SUBJECT}
      preview="Confirm your address and your first Cluefeed newsletter is on its way."
      footer={
        <EmailText muted>
          <EmailLink href={preferencesUrl}>Manage preferences</EmailLink>
          {' · '}
          <EmailLink href={unsubscribeUrl}>Unsubscribe</EmailLink>
        </EmailText>
      }
    >
      <EmailHeading>One click to confirm</EmailHeading>
      <EmailText>Confirm this address to start receiving Cluefeed:</EmailText>
      <ul
        className="cf-text"
        style={{
          margin: '0 0 24px',
          paddingLeft: '20px',
          fontSize: '16px',
          lineHeight: '26px',
          color: colours.light.text,
        }}
      >
        {audiences.map((audience) => (
          // One string, so the HTML holds the line whole (no React text separators inside it).
          <li key={audience.title}>{`For those who ${audience.title} (${audience.frequency})`}</li>
        ))}
      </ul>
      <Section style={{ margin: '0 0 24px' }}>
        <EmailButton href={confirmUrl}>Confirm my subscription</EmailButton>
      </Section>
      <EmailText muted>
        This link expires in 7 days. If you did not ask for this, you can ignore this e-mail and
        nothing more will be sent.
      </EmailText>
      <EmailText muted>
        If the button does not work, paste this link into your browser:{' '}
        <EmailLink href={confirmUrl}>{confirmUrl}</EmailLink>
      </EmailText>
    </EmailLayout>
  );
}

export async function renderConfirmSubscription(
  props: ConfirmSubscriptionProps,
): Promise<Pick<OutgoingMail, 'subject' | 'html' | 'text'>> {
  const { html, text } = await renderEmail(<ConfirmSubscriptionEmail {...props} />);
  return { subject: CONFIRM_SUBSCRIPTION_SUBJECT, html, text };
}
