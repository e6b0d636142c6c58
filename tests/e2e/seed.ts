// What the journeys know about the demo data, taken from the seed itself.
import { audiences, contentCards, posts } from '../../scripts/seed/data';

const active = audiences.filter((a) => a.state === 'active');
const cardCount = (key: string) => contentCards.filter((card) => card.audience === key).length;

/** An active audience with more cards than are shown before 'View more'. */
export const busyAudience = active.reduce((best, a) =>
  cardCount(a.key) > cardCount(best.key) ? a : best,
);
/**
 * The busy audience's cards its pages show (5, then 20 a page): a card none of whose stories is
 * new to its page is left out, as a story appears in at most one card of a page. With script,
 * 'View more' adds each next page to the same page, so a story shown above counts as seen.
 */
function busyCardsShown(oneGrowingPage: boolean) {
  const cards = contentCards
    .filter((card) => card.audience === busyAudience.key)
    .sort((a, b) => b.date.localeCompare(a.date));
  const pages = [cards.slice(0, 5)];
  for (let start = 5; start < cards.length; start += 20) pages.push(cards.slice(start, start + 20));
  let seen = new Set<string>();
  return pages.reduce((shown, page) => {
    if (!oneGrowingPage) seen = new Set<string>();
    const fresh = page.filter(
      (card) =>
        [card.primary, ...card.secondary].filter((key) => !seen.has(key) && seen.add(key)).length >
        0,
    );
    return shown + fresh.length;
  }, 0);
}
/** The cards shown once every 'View more' was followed, page by page (without script). */
export const busyAudienceCards = busyCardsShown(false);
/** The cards shown once every 'View more' added its cards to the page (with script). */
export const busyAudienceCardsOnOnePage = busyCardsShown(true);
export const movedAudience = audiences.find((a) => a.pastSlugs.length > 0)!;
export const featuredAudiences = audiences.filter((a) => a.featured);
export const pickedPost = posts.find((p) => p.link && p.type === 'article')!;
export const originalPost = posts.find((p) => p.content)!;
export const audioPost = posts.find((p) => p.type === 'audio')!;
export const videoPost = posts.find((p) => p.type === 'video')!;
export const audienceOf = (post: { audience: string }) =>
  audiences.find((a) => a.key === post.audience)!;
