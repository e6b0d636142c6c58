// The e-mails the outbox knows how to render, by kind. An e-mail stores its kind and props and is
// rendered when sent, so the request that queues it does no rendering.
import * as v from 'valibot';
import {
  CONFIRM_SUBSCRIPTION_SUBJECT,
  FEED_READY_SUBJECT,
  renderConfirmSubscription,
  renderFeedReady,
  INVITATION_SUBJECT,
  renderDigestEmail,
  renderInvitation,
  type OutgoingMail,
} from '#core/mail';

type Template<S extends v.GenericSchema> = {
  props: S;
  /** Stored with the e-mail when it is queued, so the Outbox shows it before it is sent. */
  subject(props: v.InferOutput<S>): string;
  render(props: v.InferOutput<S>): Promise<Pick<OutgoingMail, 'subject' | 'html' | 'text'>>;
};

const template = <S extends v.GenericSchema>(definition: Template<S>) => definition;

export const TEMPLATES = {
  'confirm-subscription': template({
    props: v.object({
      audiences: v.array(
        v.object({ title: v.string(), frequency: v.picklist(['daily', 'weekly']) }),
      ),
      confirmUrl: v.string(),
      preferencesUrl: v.string(),
      unsubscribeUrl: v.string(),
    }),
    subject: () => CONFIRM_SUBSCRIPTION_SUBJECT,
    render: renderConfirmSubscription,
  }),
  // A subscriber's newsletter issue as composed by core/newsletter (the story lines only), with
  // their own footer links.
  digest: template({
    props: v.object({
      subject: v.string(),
      preview: v.string(),
      heading: v.string(),
      intro: v.string(),
      sections: v.array(
        v.object({
          heading: v.optional(v.string()),
          stories: v.array(
            v.object({
              articleId: v.string(),
              title: v.string(),
              teaser: v.string(),
              postUrl: v.optional(v.string()),
              sourceUrl: v.string(),
              sourceLabel: v.string(),
              reasons: v.array(v.string()),
              update: v.optional(v.string()),
              alsoCovered: v.optional(
                v.object({
                  label: v.string(),
                  sources: v.array(v.object({ source: v.string(), url: v.string() })),
                }),
              ),
            }),
          ),
        }),
      ),
      audiences: v.array(v.object({ id: v.string(), title: v.string(), url: v.string() })),
      preferencesUrl: v.string(),
      unsubscribeUrl: v.string(),
    }),
    subject: (props) => props.subject,
    render: renderDigestEmail,
  }),
  // A user's invitation (core/users): the admin's sanitised HTML and the signed funnel link.
  invitation: template({
    props: v.object({
      name: v.string(),
      bodyHtml: v.string(),
      link: v.string(),
      expiresInDays: v.number(),
    }),
    subject: () => INVITATION_SUBJECT,
    render: renderInvitation,
  }),
  // A new reader's first stories are scored (core/users): the link to sign in and read them.
  'feed-ready': template({
    props: v.object({ name: v.string(), loginUrl: v.string() }),
    subject: () => FEED_READY_SUBJECT,
    render: renderFeedReady,
  }),
};

export type EmailKind = keyof typeof TEMPLATES;
export type PropsOf<K extends EmailKind> = v.InferInput<(typeof TEMPLATES)[K]['props']>;

// Looked up by a kind known only at run time: each template checks its own props with `v.parse`.
const templateOf = (kind: string) =>
  (TEMPLATES as Record<string, Template<v.GenericSchema> | undefined>)[kind];

/** The subject an e-mail of `kind` with `props` is sent with. */
export function subjectOf<K extends EmailKind>(kind: K, props: PropsOf<K>): string {
  const found = templateOf(kind)!;
  return found.subject(v.parse(found.props, props));
}

/** Renders a stored e-mail; an unknown kind or props that no longer fit are a bug, thrown. */
export async function render(kind: string, props: string) {
  const found = templateOf(kind);
  if (!found) throw new Error(`No e-mail template "${kind}"`);
  return found.render(v.parse(found.props, JSON.parse(props)));
}
