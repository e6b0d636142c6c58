// What the journeys know about the demo data, taken from the seed itself.
import { audiences, contentCards, posts } from '../../scripts/seed/data';

const active = audiences.filter((a) => a.state === 'active');
const cardCount = (key: string) => contentCards.filter((card) => card.audience === key).length;

/** An active audience with more cards than are shown before 'View more'. */
export const busyAudience = active.reduce((best, a) =>
  cardCount(a.key) > cardCount(best.key) ? a : best,
);
export const busyAudienceCards = cardCount(busyAudience.key);
export const movedAudience = audiences.find((a) => a.pastSlugs.length > 0)!;
export const featuredAudiences = audiences.filter((a) => a.featured);
export const pickedPost = posts.find((p) => p.link && p.type === 'article')!;
export const originalPost = posts.find((p) => p.content)!;
export const audioPost = posts.find((p) => p.type === 'audio')!;
export const videoPost = posts.find((p) => p.type === 'video')!;
export const audienceOf = (post: { audience: string }) =>
  audiences.find((a) => a.key === post.audience)!;
