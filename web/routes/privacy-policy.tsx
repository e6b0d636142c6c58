// Privacy policy: static text.
import type { MetaFunction } from '@remix-run/node';
import { useRouteLoaderData } from '@remix-run/react';
import { publicPageHeaders } from '#web/lib/cache';
import type { RootData } from '#web/root';

export const meta: MetaFunction = () => [{ title: 'Privacy policy · Cluefeed' }];
export const headers = publicPageHeaders;

export default function PrivacyPolicy() {
  const contactEmail = useRouteLoaderData<RootData>('root')?.contactEmail;
  return (
    <article className="page narrow prose">
      <h1>Privacy policy</h1>
      <p>
        This policy explains what Cluefeed collects about you, how, and what you can do about it.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Your e-mail address</strong>, so we can send you the newsletter you asked for.
        </li>
        <li>
          <strong>Your preferences</strong>: the audiences you subscribe to and the niches you vote
          for.
        </li>
        <li>
          <strong>Behaviour</strong>: which pages you visit and which links in our e-mails you open,
          to improve what we pick for you.
        </li>
        <li>
          <strong>Technology</strong>: your browser, device type and approximate location derived
          from your IP address.
        </li>
        <li>
          <strong>Demographics</strong> you choose to tell us, such as your role or interests.
        </li>
      </ul>
      <h2>How we collect it</h2>
      <p>
        Through the forms you fill in, and through cookies and similar first-party technologies on
        our website. We do not use third-party advertising trackers.
      </p>
      <p>
        Cluefeed newsletters contain no tracking pixels. Links in an issue go through a Cluefeed
        redirect that counts clicks per issue and story; it is tied to you only to count one click
        per reader.
      </p>
      <h2>Sharing</h2>
      <p>We do not sell or share your personal data with third parties.</p>
      <h2>Unsubscribing</h2>
      <p>
        You can unsubscribe at any time with the link at the bottom of every e-mail, and we will
        stop sending you mail straight away.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about your data? Write to us at{' '}
        <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
      </p>
    </article>
  );
}
