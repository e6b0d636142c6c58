// An invitation to a user: the admin's own words (sanitised HTML) and the link into the
// get-started funnel, which carries a signed, expiring token naming the user.
import { Section } from '@react-email/section';
import { sanitizeContent } from '#core/html';
import type { OutgoingMail } from '../index';
import { colours, EmailButton, EmailLayout, EmailLink, EmailText, renderEmail } from '../layout';

export const INVITATION_SUBJECT = 'You are invited to Cluefeed';

export type InvitationProps = {
  name: string;
  /** Sanitised when the invitation was sent; sanitised again here, as every stored HTML is. */
  bodyHtml: string;
  link: string;
  expiresInDays: number;
};

export function InvitationEmail({ name, bodyHtml, link, expiresInDays }: InvitationProps) {
  return (
    <EmailLayout title={INVITATION_SUBJECT} preview={`${name}, your Cluefeed invitation is here.`}>
      <div
        className="cf-text"
        style={{ fontSize: '16px', lineHeight: '26px', color: colours.light.text }}
        dangerouslySetInnerHTML={{ __html: sanitizeContent(bodyHtml) }}
      />
      <Section style={{ margin: '24px 0' }}>
        <EmailButton href={link}>Accept the invitation</EmailButton>
      </Section>
      <EmailText muted>
        {`This invitation is for ${name} and expires in ${expiresInDays} days.`}
      </EmailText>
      <EmailText muted>
        If the button does not work, paste this link into your browser:{' '}
        <EmailLink href={link}>{link}</EmailLink>
      </EmailText>
    </EmailLayout>
  );
}

export async function renderInvitation(
  props: InvitationProps,
): Promise<Pick<OutgoingMail, 'subject' | 'html' | 'text'>> {
  const { html, text } = await renderEmail(<InvitationEmail {...props} />);
  return { subject: INVITATION_SUBJECT, html, text };
}
