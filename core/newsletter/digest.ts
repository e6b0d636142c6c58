// What one subscriber's issue holds, before it becomes an e-mail: its stories, why each is there,
// and the words it costs to read. Every line a reader reads is here; the template only lays it out.
import type { SentStories } from './sent-stories';

export type Frequency = 'daily' | 'weekly';

/** The other sources of a story, under its lead: how many, and links to the newest few. */
export type AlsoCovered = {
  /** 'also covered by N sources'. */
  label: string;
  sources: { source: string; url: string }[];
};

export type DigestStory = {
  /** The lead member: the story's best-picked article. */
  articleId: string;
  /** Its story (the article's own id when it is in none): an issue has one entry per story. */
  storyId: string;
  /** The story's sources when composed; the issue records it as sent with this many. */
  sourceCount: number;
  /** Absent for a story of one source. */
  alsoCovered?: AlsoCovered;
  /** 'updated: N new sources' when an earlier issue sent the story with fewer. */
  update?: string;
  /** The picked post of the best-scored pick; its page is `postUrl`. */
  postId: string;
  title: string;
  /** Plain text, cut to fit the word budget. */
  teaser: string;
  /** The story's page on Cluefeed (`/p/{slug}`); absent while its picked post is not written. */
  postUrl?: string;
  sourceUrl: string;
  /** 'Original at {domain}', the line that links to the source. */
  sourceLabel: string;
  /** The best score among the picks that chose it. */
  score: number;
  publishedAt: string;
  /** The followed audience whose pick scored it best: its section in a weekly issue. */
  audienceId: string;
  /** 'Because you follow those who …', one per followed audience that picked it. */
  reasons: string[];
  /** A video or podcast episode and the minutes it plays, which the time counts too. */
  media?: { kind: 'audio' | 'video'; minutes: number };
};

export type DigestSection = {
  /** Weekly issues have a heading per audience ('For those who …'); a daily issue has none. */
  heading?: string;
  audienceId?: string;
  stories: DigestStory[];
};

export type DigestAudience = { id: string; title: string; url: string };

export type Digest = {
  empty: false;
  subscriberId: string;
  frequency: Frequency;
  from: string;
  to: string;
  /** The followed audiences of this frequency, each with its page. */
  audiences: DigestAudience[];
  subject: string;
  /** The line inboxes show after the subject. */
  preview: string;
  heading: string;
  intro: string;
  sections: DigestSection[];
  /** Words a reader reads (heading, intro, section headings, stories), at most `wordBudget`. */
  words: number;
  wordBudget: number;
  /** Reading time of `words`, plus the playing time of its videos and podcast episodes. */
  minutes: number;
  /** What those minutes are for: 'reading', 'reading and watching', … */
  pastimes: string;
  /** Stories picked in the window that did not fit the budget. */
  leftOut: number;
  /** What the subscriber had been sent when it was composed: sending records on top of it. */
  sentBefore: SentStories;
};

/** Nothing to send: the sender skips the subscriber and can say why. */
export type EmptyDigest = {
  empty: true;
  subscriberId: string;
  frequency: Frequency;
  from: string;
  to: string;
  why: 'no audiences' | 'no picks';
};
