// GET /api/users/me/articles?limit&offset&rating -> {rows, count}: the caller's own feed (spec:
// `GET users getArticles`), for their session cookie or a personal access token (ADR 0040).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import * as Feed from '#core/feed';
import { handleApi, json, methodNotAllowed } from '#web/lib/api.server';
import { apiReader, type ApiReader } from '#web/lib/reader-api.server';
import { storingLogs } from '#web/lib/resource-route.server';

const PRIVATE = { 'Cache-Control': 'private, no-store', Vary: 'Authorization, Cookie' };

/** One row of the spec's answer, from one story of the reader's feed list. */
function rowOf(story: Feed.FeedStory) {
  return {
    Article: {
      id: story.articleId,
      title: story.title,
      content: story.excerpt,
      link: story.link,
      imageUrl: story.image ?? null,
      publishedOn: story.publishedAt,
      rating: story.label,
      Feed: { name: story.source },
      relevantClues: story.relevantClues,
      // One row per story (ADR 0063): how many sources tell it, and the others (at most 10).
      storyId: story.storyId ?? story.articleId,
      sourceCount: story.sourceCount,
      alsoCoveredBy: story.alsoCoveredBy,
    },
  };
}

/**
 * Every answer, refusals included, is the caller's own: never kept by a cache, and it carries a
 * renewed session's cookie whatever it says (the old session is gone once renewed).
 */
async function privately(
  request: Request,
  answer: (caller: ApiReader) => Promise<Response>,
): Promise<Response> {
  let renewal: Record<string, string> = {};
  const response = await handleApi(async () => {
    const caller = await apiReader(request);
    if (caller instanceof Response) return caller;
    renewal = caller.headers;
    return answer(caller);
  });
  for (const [name, value] of Object.entries({ ...renewal, ...PRIVATE })) {
    response.headers.set(name, value);
  }
  return response;
}

export const loader = storingLogs(function loader({ request }: LoaderFunctionArgs) {
  return privately(request, async ({ reader }) => {
    const query = new URL(request.url).searchParams;
    const { stories, count } = await Feed.page(reader, {
      // The spec's default, the most a page holds (the feed page's own is smaller).
      limit: query.get('limit') ?? Feed.PAGE_LIMIT,
      offset: query.get('offset') ?? 0,
      ratings: query.getAll('rating') as Feed.FeedStory['label'][],
    });
    return json({ rows: stories.map(rowOf), count });
  });
});

/** Strangers learn nothing, not even the method: a caller without a reader gets the 401 first. */
export const action = storingLogs(function action({ request }: ActionFunctionArgs) {
  return privately(request, async () => methodNotAllowed('GET'));
});
