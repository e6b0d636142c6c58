// Privacy policy: what Cluefeed stores and why, written from what the code does (the cookies in
// web/lib/user.server.ts and admin.server.ts, the events in core/analytics, the counters in
// core/rate-limit). A change there that this text no longer describes is a change here too.
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
        This policy explains what Cluefeed collects about you, how, who else handles it, and what
        you can do about it.
      </p>

      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Your e-mail address</strong>, when you subscribe, join the waiting list or are
          invited to your own feed, so we can send you what you asked for.
        </li>
        <li>
          <strong>Your preferences</strong>: the audiences you subscribe to, the upcoming niches you
          vote for and the audiences you suggest. Readers with a feed also keep their name, their
          clues (the phrases that describe what they follow), the stories they like or dislike, and
          the conversation with the assistant that helped them set up their profile.
        </li>
        <li>
          <strong>Behaviour</strong>: when a page of ours is shown, we record the page&apos;s path,
          the page you came from (with any tokens in its address removed) and the campaign values in
          the link you followed (<code>utm</code>, <code>raud</code> and <code>vus</code>). A page
          view counts once for each page our server sent, and not for known robots such as search
          engines (your browser&apos;s name tells us; we do not keep it). We keep each page view for
          16 days, long enough to add it to our daily totals; our database then deletes it on its
          own, usually within a day or two. We also record the steps you take with us (subscribing,
          confirming, unsubscribing, voting, liking a story, changing your clues, the first visit to
          your feed) to count them; these records are tied to your subscription or account only by
          an internal number, so that one step is counted once. From these records we keep daily
          totals for our own reports.
        </li>
        <li>
          <strong>Technology</strong>: none. We do not record your browser, your device or where you
          are. Your IP address is never stored with a page view, a step or a total.
        </li>
        <li>
          <strong>Demographics</strong>: only what you choose to tell us in your clues.
        </li>
      </ul>

      <h2>How we collect it</h2>
      <p>
        Through the forms you fill in and through our own website: page views are reported to our
        own server, and Cluefeed uses no third-party analytics and no advertising trackers.
      </p>
      <p>
        <strong>Pixels:</strong> Cluefeed newsletters contain no tracking pixels. Links in an issue
        go through a Cluefeed redirect that counts clicks per issue and story; it remembers that you
        clicked a story of an issue only to count each reader once, and forgets it a year after that
        first click.
      </p>
      <p>
        <strong>Cookies:</strong> we set no tracking cookies. The only cookies are these, all our
        own:
      </p>
      <ul>
        <li>
          <code>cluefeed_user</code>: your session once you sign in to your feed (7 days).
        </li>
        <li>
          <code>cluefeed_device</code>: remembers that this browser signed in successfully, so that
          someone else guessing passwords cannot lock you out of it (30 days, sent only to the
          sign-in page).
        </li>
        <li>
          For the people who run Cluefeed only: the admin panel&apos;s session{' '}
          <code>cluefeed_admin</code> (12 hours), its last opened page{' '}
          <code>cluefeed_admin_last</code> (30 days) and the same sign-in protection{' '}
          <code>cluefeed_admin_device</code> (30 days).
        </li>
      </ul>
      <p>
        <strong>Rate limits:</strong> to stop abuse of our forms, sign-in and links, we count
        requests per IP address. The address is kept only as the key of that counter, which expires
        on its own: within 3 minutes for forms, page views and links, within 21 minutes for checks
        of a typed audience name or clue, and within 31 minutes for sign-in attempts. A limit on
        confirmation e-mails counts per e-mail address and expires within about 2 hours. Our
        database then deletes an expired counter on its own, usually within a day or two.
      </p>

      <h2>Sharing</h2>
      <p>
        We do not sell or share your personal data with third parties. Two services process data for
        us, under our instructions and only for this:
      </p>
      <ul>
        <li>
          <strong>Mailchimp</strong> keeps our mailing list: your e-mail address, whether you are
          subscribed, your subscriber number and, as tags, the audiences you chose, the upcoming
          niches you identify with, the first audience you subscribed to and the campaign (utm) of
          the link that brought you.
        </li>
        <li>
          <strong>OpenAI</strong>, when we have it switched on, runs our AI features: it sees the
          stories being scored, readers&apos; clues, the messages written to the assistant and
          suggested audience names; we never send it an e-mail address.
        </li>
      </ul>
      <p>
        E-mails are delivered through our e-mail provider, which sees the address and the message.
      </p>

      <h2>Unsubscribing and deleting your data</h2>
      <p>
        You can unsubscribe at any time with the &lsquo;Unsubscribe&rsquo; link at the bottom of
        every e-mail, and we stop sending you mail straight away; &lsquo;Manage preferences&rsquo;
        beside it changes your audiences or your address. We keep an unsubscribed address marked as
        such so that we never mail it again by mistake. To have your address, your subscription or
        your reader account deleted altogether, write to us at the address below and we will erase
        them.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about your data? Write to us at{' '}
        <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
      </p>
    </article>
  );
}
