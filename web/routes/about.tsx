// About: the mission, three numbered cards, what the product offers (the same words as home), and
// the contact block; the copyright line is the site footer's. Always opens at the top.
import type { MetaFunction } from '@remix-run/node';
import { useLocation } from '@remix-run/react';
import { useEffect } from 'react';
import { AudienceStart, WAITLIST_OFFER } from '#web/components/audience-start';
import { TrackedLink } from '#web/components/tracked-link';
import { publicPageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [
  { title: 'About · Cluefeed' },
  {
    name: 'description',
    content: 'Cluefeed curates web3 content daily, personalised to who you are.',
  },
];
export const headers = publicPageHeaders;

const cards = [
  {
    title: 'A newsletter tailored to you',
    text: 'Choose the words that describe you, the things you build, trade, collect or study, and we shape your newsletter around them.',
  },
  {
    title: 'Curated and explained by editors',
    text: 'Our AI agent reads everything so you do not have to; our editors pick the stories that matter and explain why they matter to you.',
  },
  {
    title: 'Delivered daily, evolving daily',
    text: 'A new edition lands every day and learns as you read. When we spot a niche that suits you, you can add it in one click.',
  },
];

export default function About() {
  const { key } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [key]);
  return (
    <article className="page about">
      <header className="about__mission">
        <h1>Our mission</h1>
        <p>
          Web3 moves too fast to follow alone. Every day Cluefeed curates the stories from across
          the web3 world and personalises them to who you are, so you read what matters to you and
          skip the rest.
        </p>
      </header>
      <ol className="about__cards">
        {cards.map((card, index) => (
          <li key={card.title} className="about__card">
            <span className="about__number" aria-hidden="true">
              {index + 1}
            </span>
            <h2>{card.title}</h2>
            <p>{card.text}</p>
          </li>
        ))}
      </ol>
      <AudienceStart className="about__start" />
      <section className="about__feed" aria-labelledby="about-feed">
        <h2 id="about-feed">A feed of your own</h2>
        <p>
          {WAITLIST_OFFER} <TrackedLink to="/">Join on the home page</TrackedLink>.
        </p>
      </section>
      <footer className="about__contact">
        <h2>Contact</h2>
        <address>
          Cluefeed
          <br />
          Ermou 56
          <br />
          105 63 Athens, Greece
        </address>
      </footer>
    </article>
  );
}
