// Readers who can sign in, for tests and journeys: a user with descriptors and a password (set
// directly as its argon2id hash; the funnel's own password step is tested with the funnel), and a
// signed-in reader whose feed list was built from stories scored for them.
import { hash } from '@node-rs/argon2';
import { ulid } from 'ulid';
import type { RelevanceLabel } from '#core/ai';
import type * as Articles from '#core/articles';
import * as Auth from '#core/auth';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from './factories';

export const READER_PASSWORD = 'reader-password-1';

export async function readerWithPassword(
  options: {
    password?: string | null;
    isActive?: boolean;
    clues?: string[];
    name?: string;
    domain?: string;
  } = {},
) {
  const email = `reader-${ulid().toLowerCase()}@${options.domain ?? 'example.org'}`;
  const user = await Users.create({
    name: options.name ?? 'Ada Reader',
    email,
    isActive: options.isActive ?? true,
    status: 'Onboarded',
  });
  if (options.clues?.length) await Users.setDescriptors(user.id, options.clues);
  const password = options.password === undefined ? READER_PASSWORD : options.password;
  if (password !== null) {
    await Users.UserEntity.patch({ id: user.id })
      .set({ passwordHash: await hash(password, Auth.PASSWORD_HASHING) })
      .go();
  }
  return { user, email, password: password ?? '' };
}

/**
 * A signed-in reader whose feed list holds one story per label given (each scored for them by
 * production's setup, titled after the reader's name), and their session's token.
 */
export async function readerWithFeed(labels: RelevanceLabel[], name = 'Ada Reader') {
  const reader = await readerWithPassword({ clues: ['I build DeFi lending protocols'], name });
  const user = (await Users.byId(reader.user.id))!;
  const keys = await Scoring.productionKeys();
  const articles = [];
  for (const [index, label] of labels.entries()) {
    const article = await createArticle({
      title: `${name} story ${index + 1}`,
      source: `${name} Daily`,
      publishedAt: new Date(Date.UTC(2026, 10, 1 + index)).toISOString(),
    });
    await scoreFor(user, article, label, keys);
    articles.push(article);
  }
  await Feed.buildFeed(user.id);
  const { token } = await Users.signIn(
    { login: reader.email, password: reader.password },
    { ip: `198.51.100.${ulid()}` },
  );
  return { ...reader, articles, token };
}

/**
 * Ends a journey's reader: inactive, so the scoring runs of later journeys (every active reader
 * with clues, over the newest articles) do not score them too.
 */
export async function retireReader(id: string): Promise<void> {
  await Users.UserEntity.patch({ id }).set({ isActive: false }).go();
}

/** The article's score for the reader by production's setup (or `keys`), matching their first clue. */
export async function scoreFor(
  user: Users.User,
  article: Articles.Article,
  label: RelevanceLabel,
  keys?: Scoring.SetupKeys,
) {
  await Scoring.storeScore(
    article.id,
    Scoring.userTarget(user),
    keys ?? (await Scoring.productionKeys()),
    {
      label,
      score: 0.5,
      reason: 'It matches',
      relevantClues: [user.descriptors![0]!.clue],
      publishedAt: article.publishedAt,
      processId: ulid(),
      inputTokens: 0,
      outputTokens: 0,
    },
  );
}
