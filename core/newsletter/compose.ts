// One issue per subscriber: the picks of the audiences they follow (and the upcoming niches they
// chose, once active) in a time window, one entry per story with every reason it is there and its
// other sources, leaving out stories sent before that did not grow, cut to the word budget.
import * as v from 'valibot';
import type * as Articles from '#core/articles';
import type * as Audiences from '#core/audiences';
import { parse, STORY_TEXTS, VisibleError } from '#core/common';
import { config } from '#core/config';
import type * as Curation from '#core/curation';
import type * as Posts from '#core/posts';
import * as Stories from '#core/stories';
import type { Subscriber } from '#core/subscribers';
import { directReads, type DigestReads } from './reads';
import { sourcesSent } from './sent-stories';
import { countWords, fitToBudget, WORD_BUDGET, WORDS_PER_MINUTE } from './budget';
import type { Digest, DigestSection, DigestStory, EmptyDigest, Frequency } from './digest';

/** The spec's code for a content window that does not end after it starts. */
export const CONTENT_WINDOW_NOT_VALID = 'SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID';

/** Picks read per audience: more than any budget keeps, so the best are among them. */
export const PICKS_PER_AUDIENCE = { daily: 50, weekly: 200 } as const;

const Timestamp = (name: string) =>
  v.pipe(v.string(`${name} is required`), v.isoTimestamp(`${name} must be an ISO timestamp`));

export const ComposeOptions = v.object({
  frequency: v.picklist(['daily', 'weekly'], 'The frequency is daily or weekly'),
  from: Timestamp('from'),
  to: Timestamp('to'),
  /** A campaign for some audiences only; the subscriber's other audiences stay out. */
  audienceIds: v.optional(v.array(v.pipe(v.string(), v.maxLength(64)))),
});

type Reader = Pick<Subscriber, 'id' | 'audienceIds' | 'shadowAudienceIds'>;
type Audience = Audiences.Audience;
type Story = DigestStory;

const absolute = (path: string) => new URL(path, config().PUBLIC_URL).toString();

/** 'a', 'a and b', 'a, b and c'. */
function listed(items: string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Why a pick is in the issue, from the clues its score matched; the audience's title if none. */
export function reasonFor(pick: Pick<Curation.Pick, 'relevantClues'>, audience: Audience): string {
  const seen = new Set<string>();
  const clues = (pick.relevantClues ?? [])
    .map((clue) => clue.trim())
    .filter((clue) => clue && !seen.has(clue.toLowerCase()) && seen.add(clue.toLowerCase()));
  return `Because you follow those who ${listed(clues.length ? clues : [audience.title])}`;
}

/**
 * The audiences a digest reads: followed or chosen niches that are active, and either the issue's
 * own audiences (a campaign may send a weekly audience's picks as a daily issue) or, without a
 * list, those of the digest's frequency.
 */
async function audiencesOf(
  reads: DigestReads,
  reader: Reader,
  frequency: Frequency,
  only?: string[],
) {
  const ids = [...new Set([...(reader.audienceIds ?? []), ...(reader.shadowAudienceIds ?? [])])];
  const audiences = await reads.audiences(only ? ids.filter((id) => only.includes(id)) : ids);
  return audiences
    .filter((audience) => audience.state === 'active' && (only || audience.frequency === frequency))
    .sort((a, b) => a.title.localeCompare(b.title));
}

const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const domainOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

/**
 * A video or podcast episode and its minutes: the picked post's type and minutes, else (no post
 * yet) the article's kind and the running time its feed gave. Text is undefined: its words count.
 */
function mediaOf(post?: Posts.Post, article?: Articles.Article): Story['media'] {
  if (post) return post.type === 'article' ? undefined : { kind: post.type, minutes: post.minutes };
  if (!article?.mediaType || !article.durationSeconds) return undefined;
  return { kind: article.mediaType, minutes: Math.ceil(article.durationSeconds / 60) };
}

const byScore = (a: Story, b: Story) =>
  b.score - a.score ||
  b.publishedAt.localeCompare(a.publishedAt) ||
  a.articleId.localeCompare(b.articleId);

/** Other sources linked under a story; its label counts all of them. */
export const ALSO_COVERED_LINKS = 5;

/**
 * One entry per story: its best-scored pick leads (its post, score and section), every pick of
 * any of its members gives its reason (once, the lead's first), and its other sources follow. A
 * story the subscriber was sent before comes again only with more sources, saying how many are
 * new. An entry whose post and article are both gone is left out.
 */
async function storiesOf(
  reads: DigestReads,
  picks: { pick: Curation.Pick; audience: Audience }[],
  sentBefore: Map<string, number>,
): Promise<Story[]> {
  const sorted = [...picks].sort((a, b) => b.pick.score - a.pick.score);
  const articles = new Map(
    (await reads.articles([...new Set(sorted.map(({ pick }) => pick.articleId))])).map((a) => [
      a.id,
      a,
    ]),
  );
  const stories = await reads.stories([...articles.values()]);
  const storyIdOf = (articleId: string) => stories.get(articleId)?.id ?? articleId;
  const byStory = new Map<string, typeof picks>();
  for (const entry of sorted) {
    const storyId = storyIdOf(entry.pick.articleId);
    byStory.set(storyId, [...(byStory.get(storyId) ?? []), entry]);
  }
  const leads = [...byStory.values()].map((entries) => entries[0]!);
  const posts = new Map(
    (await reads.posts(leads.map(({ pick }) => pick.postId))).map((post) => [post.id, post]),
  );
  return leads.flatMap(({ pick, audience }) => {
    const storyId = storyIdOf(pick.articleId);
    const story = stories.get(pick.articleId);
    const sourceCount = story?.sourceCount ?? 1;
    const sent = sentBefore.get(storyId);
    if (sent !== undefined && sent >= sourceCount) return [];
    const post = posts.get(pick.postId);
    const article = articles.get(pick.articleId);
    const sourceUrl = post?.link?.url ?? article?.canonicalUrl;
    if (!sourceUrl) return [];
    const title = post?.title ?? article!.title;
    const teaser = post?.teaser ?? plainText(article!.summary ?? '');
    const reasons = [...new Set(byStory.get(storyId)!.map((e) => reasonFor(e.pick, e.audience)))];
    const media = mediaOf(post, article);
    const outlets = story ? Stories.otherOutlets(story, pick.articleId).length : 0;
    const others = story ? Stories.otherSources(story, pick.articleId) : [];
    return [
      {
        articleId: pick.articleId,
        storyId,
        sourceCount,
        postId: pick.postId,
        title,
        // A picked post without a summary has its title as teaser; the issue says it once.
        teaser: teaser === title ? '' : teaser,
        postUrl: post && absolute(`/p/${post.slug}`),
        sourceUrl,
        sourceLabel: `Original at ${domainOf(sourceUrl)}`,
        score: pick.score,
        publishedAt: pick.publishedAt,
        audienceId: audience.id,
        reasons,
        ...(media && { media }),
        ...(outlets > 0 && {
          alsoCovered: {
            label: STORY_TEXTS.alsoCoveredBy(outlets),
            sources: others.slice(0, ALSO_COVERED_LINKS).map((other) => ({
              source: other.source,
              url: other.link,
            })),
          },
        }),
        ...(sent !== undefined && { update: STORY_TEXTS.updated(sourceCount - sent) }),
      },
    ];
  });
}

/**
 * The order stories claim the budget in: each audience's best story, then each one's second, and
 * so on (audiences by their best score), so a busy audience never crowds out a quiet one.
 */
function takingTurns(stories: Story[]): Story[] {
  const groups = new Map<string, Story[]>();
  for (const story of [...stories].sort(byScore)) {
    groups.set(story.audienceId, [...(groups.get(story.audienceId) ?? []), story]);
  }
  const turns: Story[] = [];
  const queues = [...groups.values()];
  for (let rank = 0; turns.length < stories.length; rank++) {
    for (const queue of queues) if (queue[rank]) turns.push(queue[rank]!);
  }
  return turns;
}

const forThoseWho = (audience: Audience) => `For those who ${audience.title}`;

/** Daily: one list by score. Weekly: a section per audience (best first), each by score. */
function sectionsOf(frequency: Frequency, stories: Story[], audiences: Audience[]) {
  const sorted = [...stories].sort(byScore);
  if (frequency === 'daily') return [{ stories: sorted }];
  const sections: DigestSection[] = [];
  for (const story of sorted) {
    let section = sections.find((s) => s.audienceId === story.audienceId);
    if (!section) {
      const audience = audiences.find((a) => a.id === story.audienceId)!;
      section = { audienceId: audience.id, heading: forThoseWho(audience), stories: [] };
      sections.push(section);
    }
    section.stories.push(story);
  }
  return sections;
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  });

/** 'reading', 'reading and watching', 'reading, watching and listening': what the time is for. */
function pastimes(stories: Story[]): string {
  const kinds = new Set(stories.map((story) => story.media?.kind));
  return listed([
    'reading',
    ...(kinds.has('video') ? ['watching'] : []),
    ...(kinds.has('audio') ? ['listening'] : []),
  ]);
}

/** Minutes to read `words` and play the stories' videos and episodes. */
function minutesFor(words: number, stories: Story[]): number {
  const playing = stories.reduce((sum, story) => sum + (story.media?.minutes ?? 0), 0);
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE + playing));
}

function framing(frequency: Frequency, kept: Story[], minutes: number, from: string, to: string) {
  const stories = `${kept.length} ${kept.length === 1 ? 'story' : 'stories'}`;
  if (frequency === 'daily') {
    return {
      heading: 'Your daily Cluefeed',
      intro: `${stories} picked for you, about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} of ${pastimes(kept)}.`,
    };
  }
  // `to` is exclusive: the week of 16-23 Nov ends on the 22nd.
  const last = new Date(Date.parse(to) - 1).toISOString();
  return {
    heading: 'Your week on Cluefeed',
    intro: `${stories} picked for you from ${day(from)} to ${day(last)}, grouped by the audiences you follow.`,
  };
}

const cutTitle = (title: string, max: number) =>
  title.length <= max ? title : `${title.slice(0, max - 1).trimEnd()}…`;

/**
 * The issue `subscriber` gets for `frequency` from the picks of [from, to), or an empty digest the
 * sender skips. It does not look at the subscriber's status: whether mail may go is the sender's
 * call (`Subscribers.canReceiveMail`), and a preview may show any subscriber's issue.
 */
export async function composeDigest(
  subscriber: Reader,
  options: v.InferInput<typeof ComposeOptions>,
  reads: DigestReads = directReads,
): Promise<Digest | EmptyDigest> {
  const { frequency, ...window } = parse(ComposeOptions, options);
  if (Date.parse(window.from) >= Date.parse(window.to)) {
    throw new VisibleError(
      CONTENT_WINDOW_NOT_VALID,
      'The content window is not valid: it must end after it starts',
      400,
    );
  }
  // Picks are stored with toISOString() times; the same form compares right as a key.
  const from = new Date(window.from).toISOString();
  const to = new Date(window.to).toISOString();
  const empty = (why: EmptyDigest['why']): EmptyDigest => ({
    empty: true,
    subscriberId: subscriber.id,
    frequency,
    from,
    to,
    why,
  });

  const audiences = await audiencesOf(reads, subscriber, frequency, window.audienceIds);
  if (audiences.length === 0) return empty('no audiences');
  const picks = await Promise.all(
    audiences.map(async (audience) =>
      (
        await reads.picks(audience.id, {
          from,
          to,
          limit: PICKS_PER_AUDIENCE[frequency],
        })
      ).map((pick) => ({ pick, audience })),
    ),
  );
  const sentBefore = await reads.sentStories(subscriber.id);
  const stories = await storiesOf(reads, picks.flat(), sourcesSent(sentBefore));
  if (stories.length === 0) return empty('no picks');

  const sections = sectionsOf(frequency, stories, audiences);
  // The frame's words do not depend on its figures, so the largest frame (every kind of story)
  // is counted up front; the words of the one sent are counted again below.
  const frame = framing(frequency, stories, 1, from, to);
  const frameWords =
    countWords(frame.heading) +
    countWords(frame.intro) +
    sections.reduce((sum, s) => sum + countWords(s.heading ?? ''), 0);
  const budget = WORD_BUDGET[frequency];
  const fitted = fitToBudget(takingTurns(stories), budget, frameWords);
  const keptSections = sectionsOf(frequency, fitted.kept, audiences);
  const wordsBesideIntro =
    fitted.words -
    countWords(frame.intro) -
    sections.reduce((sum, s) => sum + countWords(s.heading ?? ''), 0) +
    keptSections.reduce((sum, s) => sum + countWords(s.heading ?? ''), 0);
  const introWords = countWords(framing(frequency, fitted.kept, 1, from, to).intro);
  const words = wordsBesideIntro + introWords;
  const minutes = minutesFor(words, fitted.kept);
  const { heading, intro } = framing(frequency, fitted.kept, minutes, from, to);
  const top = keptSections.flatMap((s) => s.stories).sort(byScore)[0]!;
  const label = frequency === 'daily' ? 'Your daily Cluefeed' : 'Your week on Cluefeed';

  return {
    empty: false,
    subscriberId: subscriber.id,
    frequency,
    from,
    to,
    audiences: audiences.map(({ id, title, slug }) => ({ id, title, url: absolute(`/a/${slug}`) })),
    subject: `${label}: ${cutTitle(top.title, 90)}`,
    preview: intro,
    heading,
    intro,
    sections: keptSections,
    words,
    wordBudget: budget,
    minutes,
    pastimes: pastimes(fitted.kept),
    leftOut: fitted.leftOut,
    sentBefore,
  };
}
