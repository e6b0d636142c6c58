// Key round-trips for every entity: each entity file under core/*/ is found by glob, a sample item
// is written through the entity, the raw item is read at the key docs/data-model.md documents, its
// index keys are compared with the documented formats, and the item read back through the entity
// (by its key and through every index) must carry every attribute exactly as written, so an id
// can never come back as `post#01J...`. A new entity without a sample here fails the first test.
import { readFileSync } from 'node:fs';
import { GetCommand, PutCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { Entity } from 'electrodb';
import { decodeTime, ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { db } from '#core/db';

/** The part of an ElectroDB entity this test uses, whatever its schema. */
type AnyEntity = {
  schema: {
    model: { entity: string };
    attributes: Record<string, { type?: unknown }>;
    indexes: Record<string, unknown>;
  };
  put(item: never): { go(): Promise<unknown> };
  get(key: never): { go(): Promise<{ data: unknown }> };
  query: Record<string, (facets: unknown) => QueryChain>;
};
type Sample = {
  /** The entity's row in docs/data-model.md. */
  doc: string;
  item: Record<string, unknown>;
  /** Values for placeholders that are not attribute names, e.g. `{sha256(token)}`. */
  vars?: Record<string, string>;
};

const files = import.meta.glob<Record<string, unknown>>('../*/*entity.ts', { eager: true });

const entities = Object.entries(files).flatMap(([file, exports]) =>
  Object.values(exports)
    .filter((value) => value instanceof Entity)
    .map((value) => {
      const entity = value as unknown as AnyEntity;
      return { file, entity, name: entity.schema.model.entity };
    }),
);

const at = '2026-11-20T08:00:00.000Z';
const id = () => ulid();

/** One realistic item per entity, keyed by ElectroDB entity name. */
const samples: Record<string, () => Sample> = {
  aiModel: () => ({
    doc: 'AiModel',
    item: {
      id: 'openai-compatible:llama3.1:8b',
      provider: 'openai-compatible',
      model: 'llama3.1:8b',
      modelType: 'gpt',
      baseUrl: 'http://127.0.0.1:11434/v1',
      createdAt: at,
    },
  }),
  analyticsDay: () => ({
    doc: 'DayRollup',
    item: {
      day: '2026-11-20',
      counts: JSON.stringify({ campaigns: { 'visit\tlaunch\tsp': 3 }, readers: { active: 1 } }),
      subscribers: JSON.stringify({ [id()]: 12 }),
      countedAt: at,
    },
  }),
  analyticsWatermark: () => ({
    doc: 'RollupWatermark',
    item: { through: at, processId: id(), rolledAt: at, revision: 42 },
  }),
  analyticsKeptReport: () => ({
    doc: 'KeptReport',
    item: {
      from: '2026-08-23',
      to: '2026-11-20',
      filters: 'launch|sp',
      revision: 42,
      figures: JSON.stringify({ choices: { utms: ['launch'], vuses: ['sp'] } }),
      computedAt: at,
      claimedRevision: 42,
      claimedUntil: at,
      expiresAt: 1_811_000_000,
    },
  }),
  analyticsEvent: () => ({
    doc: 'AnalyticsEvent',
    item: {
      id: id(),
      day: '2026-11-20',
      shard: 3,
      at,
      name: 'page_view',
      path: '/a/defi',
      utm: 'launch',
    },
    vars: { 'shard 0..3': '3' },
  }),
  experimentDataset: () => ({
    doc: 'ExperimentDataset',
    item: {
      id: id(),
      name: 'Newest articles for audiences',
      group: 'first_layer_descriptor',
      articles: 100,
      descriptors: 12,
      users: 0,
      stories: 0,
      scores: 1200,
      createdAt: at,
      systemUserId: id(),
    },
  }),
  experimentDatasetItem: () => ({
    doc: 'ExperimentDatasetItem',
    item: { datasetId: id(), kind: 'article', index: 7, data: '{"id":"a","title":"Aave"}' },
  }),
  experimentStarterClaim: () => ({
    doc: 'ExperimentStarterClaim',
    item: { claimedAt: at, systemUserId: id() },
  }),
  experimentRun: () => ({
    doc: 'ExperimentRun',
    item: {
      id: id(),
      expImplementationId: 'score-articles-per-descriptor',
      name: 'Strict prompt',
      comments: 'Compare with the lenient one',
      input: '{"dataset":"d","articleLimit":10}',
      createdAt: at,
      systemUserId: id(),
      revision: 2,
      processId: id(),
      executedAt: at,
    },
  }),
  experimentResult: () => ({
    doc: 'ExperimentResult',
    item: { processId: id(), key: 'chunk#00#00003', data: '[]' },
  }),
  articleImport: () => ({
    doc: 'ArticleImport',
    item: { id: id(), importedAt: at },
  }),
  articleCount: () => ({
    doc: 'ArticleCount',
    item: { shard: 5, count: 12 },
    vars: { '0..7': '5' },
  }),
  assessmentAnswer: () => ({
    doc: 'AssessmentAnswer',
    item: {
      inputHash: 'cd'.repeat(32),
      promptId: 'default-audience-name-assessment',
      modelId: 'local:cluefeed-bm25',
      prefix: 'I am one of those who',
      pointer: 'work on',
      audienceName: 'build DeFi lending protocols',
      score: 'very insightful',
      rank: 'HIGH',
      reasoning: 'It names a protocol type.',
      suggestions: ['build DeFi lending protocols on Ethereum'],
      raw: '{"score":"very insightful"}',
      inputTokens: 30,
      outputTokens: 20,
      costUsd: 0,
      createdAt: at,
      expiresAt: 2e9,
    },
    vars: { 'sha256(input)': 'cd'.repeat(32) },
  }),
  audienceMember: () => ({
    doc: 'AudienceMember',
    item: { audienceId: id(), subscriberId: id(), addedAt: at },
  }),
  articleFingerprint: () => ({
    doc: 'ArticleFingerprint',
    item: { fingerprint: `fp-${id()}`, articleId: id() },
  }),
  articleUrl: () => ({
    doc: 'ArticleUrl',
    item: { canonicalUrl: `https://example.org/news/${id()}?page=2#top`, articleId: id() },
  }),
  article: () => ({
    doc: 'Article',
    item: {
      id: id(),
      canonicalUrl: `https://example.org/news/${id()}`,
      title: 'Why intent-based bridges are winning',
      publishedAt: at,
      importedAt: at,
      source: 'The Block',
      streamId: id(),
      fingerprint: `fp-${id()}`,
    },
  }),
  audience: () => ({
    doc: 'Audience',
    item: {
      id: id(),
      title: 'build DeFi # protocols',
      slug: `defi-${id().toLowerCase()}`,
      tag: 'aud-defi',
      frequency: 'daily',
      state: 'active',
      featured: true,
      relatedAudienceIds: [id()],
      votes: 3,
      createdAt: at,
    },
  }),
  systemUser: () => ({
    doc: 'SystemUser',
    item: {
      id: id(),
      userName: `editor-${id().toLowerCase()}`,
      name: 'Editor',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      role: 1,
      createdAt: at,
    },
  }),
  session: () => ({
    doc: 'Session',
    item: { tokenHash: 'ab'.repeat(32), systemUserId: id(), createdAt: at, expiresAt: 2e9 },
    vars: { 'sha256(token)': 'ab'.repeat(32) },
  }),
  systemUserName: () => ({
    doc: 'SystemUserName',
    item: { userName: `editor-${id().toLowerCase()}`, systemUserId: id() },
  }),
  contentCard: () => ({
    doc: 'ContentCard',
    item: {
      id: id(),
      slug: 'bridges-are-getting-faster',
      date: at,
      audienceId: id(),
      primaryStoryId: id(),
      secondaryStoryIds: [id(), id()],
      primaryStoriesHeader: 'Story of the day',
      secondaryStoriesHeader: 'Also worth reading',
      verbalDescriptor: 'Bridges are getting faster and cheaper',
      createdAt: at,
    },
  }),
  activeProcess: () => ({
    doc: 'ActiveProcess',
    item: { id: id(), name: 'importArticles', createdAt: at },
  }),
  process: () => ({
    doc: 'Process',
    item: {
      id: id(),
      name: `sweep-job-${id()}`,
      status: 'Queued',
      input: '{}',
      systemUserId: id(),
      createdAt: at,
    },
  }),
  processChunk: () => ({
    doc: 'ProcessChunk',
    item: {
      processId: id(),
      index: 42,
      status: 'done',
      payload: JSON.stringify({ articleIds: [id(), id()] }),
      plannedBy: 1,
      attempts: 1,
      leaseUntil: at,
      totals: JSON.stringify({ scored: 2 }),
      createdAt: at,
      updatedAt: at,
    },
    vars: { 'index, 6 digits': '000042' },
  }),
  logEntry: () => ({
    doc: 'LogEntry',
    vars: { 'shard 0..3': '2' },
    item: {
      day: '2026-11-20',
      shard: 2,
      id: id(),
      timestamp: at,
      level: 'info',
      message: 'Imported 3 articles',
      expiresAt: 2e9,
    },
  }),
  score: () => ({
    doc: 'Score',
    item: {
      articleId: id(),
      matchingType: 'user',
      matchingId: id(),
      cluesHash: '0123456789abcdef',
      promptId: 'default-scoring',
      modelId: 'local:cluefeed-bm25',
      label: 'Quite Relevant',
      rank: '3',
      score: 0.62,
      reason: 'It explains a lending protocol upgrade.',
      relevantClues: ['build DeFi protocols'],
      publishedAt: at,
      processId: id(),
      inputTokens: 120,
      outputTokens: 40,
      costUsd: 0.0001,
      createdAt: at,
    },
  }),
  scoreCounts: () => ({
    doc: 'ScoreCounts',
    item: {
      matchingType: 'audience',
      matchingId: id(),
      cluesHash: '0123456789abcdef',
      promptId: 'default-scoring',
      modelId: 'local:cluefeed-bm25',
      shard: 2,
      notRelevant: 4,
      quiteRelevant: 1,
    },
  }),
  experimentScore: () => ({
    doc: 'ExperimentScore',
    item: {
      processId: id(),
      articleId: id(),
      matchingType: 'audience',
      matchingId: id(),
      promptId: id(),
      modelId: 'openai:gpt-4o-mini',
      label: 'Slightly Relevant',
      score: 0.2,
      reason: 'It touches on lending protocols.',
      relevantClues: ['build DeFi protocols'],
      createdAt: at,
      expiresAt: 2e9,
    },
  }),
  sourceMatch: () => ({
    doc: 'SourceMatch',
    item: {
      audienceId: id(),
      streamId: id(),
      streamName: 'The Defiant',
      label: 'Very Relevant',
      score: 0.82,
      reason: 'Its headlines are about lending protocols.',
      headlines: 8,
      promptId: 'default-source-audience-matching',
      modelId: 'local:cluefeed-bm25',
      processId: id(),
      matchedAt: at,
    },
  }),
  scoreFailure: () => ({
    doc: 'ScoreFailure',
    item: {
      articleId: id(),
      matchingType: 'audience',
      matchingId: id(),
      cluesHash: '0123456789abcdef',
      promptId: 'default-scoring',
      modelId: 'openai:gpt-4o-mini',
      error: 'The model answered with malformed JSON',
      attempts: 1,
      processId: id(),
      importedAt: at,
      lastTriedAt: at,
      expiresAt: 2e9,
    },
  }),
  scoringWatermark: () => ({
    doc: 'ScoringWatermark',
    item: {
      matchingType: 'user',
      matchingId: id(),
      cluesHash: '0123456789abcdef',
      promptId: 'default-scoring',
      modelId: 'local:cluefeed-bm25',
      importedUpTo: at,
      plannedAt: '2026-11-20T08:00:31.000Z',
      plannedBy: id(),
      since: '2026-11-20T07:00:00.000Z',
    },
  }),
  pick: () => ({
    doc: 'Pick',
    item: {
      audienceId: id(),
      articleId: id(),
      postId: id(),
      contentCardId: id(),
      processId: id(),
      score: 0.82,
      label: 'Very Relevant',
      reason: 'It explains a lending protocol upgrade.',
      relevantClues: ['build DeFi protocols'],
      publishedAt: at,
      pickedAt: at,
      isArchived: false,
      isPickedForFeed: true,
    },
  }),
  pickedArticle: () => ({
    doc: 'PickedArticle',
    item: { audienceId: id(), articleId: id(), processId: id(), pickedAt: at },
  }),
  pickRun: () => ({
    doc: 'PickRun',
    item: {
      audienceId: id(),
      processId: id(),
      outcome: 'picked',
      raw: '{"primaryId":"1"}',
      promptId: 'default-pick-best-content',
      modelId: 'local:cluefeed-bm25',
      contentCardId: id(),
      stories: [
        {
          articleId: id(),
          score: 0.82,
          label: 'Very Relevant',
          reason: 'It explains a lending protocol upgrade.',
          relevantClues: ['build DeFi protocols'],
          publishedAt: at,
        },
      ],
      primaryStoriesHeader: 'Top story: lending protocol',
      secondaryStoriesHeader: 'Also on oracle latency',
      verbalDescriptor: 'Why lending protocol matters to those who build DeFi protocols.',
      inputTokens: 120,
      outputTokens: 40,
      costUsd: 0,
      pickedAt: at,
    },
  }),
  corpusStats: () => ({
    doc: 'CorpusStats',
    item: {
      stats: 'H4sIAAAAAAAAA6tWKkktLlGyUlAqS8wpTVWqBQA/Ct4uEAAAAA==',
      hash: 'ab'.repeat(32),
      documents: 2000,
      stems: 14_000,
      builtAt: at,
    },
  }),
  productionScoring: () => ({
    doc: 'ProductionScoring',
    item: {
      promptId: id(),
      modelId: 'openai:gpt-4o-mini',
      revision: 3,
      promotedAt: at,
      promotedBy: id(),
    },
  }),
  prompt: () => ({
    doc: 'Prompt',
    item: {
      id: id(),
      expImplementationId: 'scoring',
      title: 'Score with reasons',
      prompt: 'Rate {title} for {clues}.',
      createdAt: at,
      systemUserId: id(),
      isDeleted: false,
    },
  }),
  newsletterIssue: () => ({
    doc: 'NewsletterIssue',
    item: {
      id: id(),
      origin: 'campaign',
      frequency: 'daily',
      from: '2026-11-19T08:00:00.000Z',
      to: at,
      audienceIds: [id(), id()],
      status: 'sending',
      processId: id(),
      createdBy: 'admin@cluefeed.xyz',
      recipients: 120,
      queued: 10,
      sent: 90,
      skipped: 18,
      failed: 2,
      createdAt: at,
      doneAt: at,
    },
  }),
  delivery: () => ({
    doc: 'Delivery',
    item: {
      issueId: id(),
      subscriberId: id(),
      status: 'skipped',
      reason: 'no picks',
      outboundEmailId: id(),
      createdAt: at,
    },
  }),
  click: () => ({
    doc: 'Click',
    item: {
      issueId: 'daily-2026-11-20',
      subscriberId: id(),
      articleId: id(),
      clickedAt: at,
      expiresAt: 1_811_000_000,
    },
  }),
  storyClicks: () => ({
    doc: 'StoryClicks',
    item: { issueId: 'daily-2026-11-20', articleId: id(), clicks: 7, uniqueClicks: 4 },
  }),
  scheduledSend: () => ({
    doc: 'ScheduledSend',
    item: { issueId: id(), sendAt: at },
  }),
  post: () => ({
    doc: 'Post',
    item: {
      id: id(),
      slug: `post-${id().toLowerCase()}`,
      title: 'Why intent-based bridges are winning',
      date: at,
      teaser: 'Solvers compete to fill cross-chain orders.',
      minutes: 6,
      type: 'article',
      audienceId: id(),
      author: {
        name: 'Mara Lindqvist',
        handle: 'mara_eth',
        avatar: '/avatars/mara_eth.svg',
        tagLine: 'DeFi researcher',
        bio: 'Writes about lending markets.',
      },
      createdAt: at,
    },
  }),
  rateLimitWindow: () => ({
    doc: 'RateLimitWindow',
    item: {
      bucket: 'subscribe',
      key: '10.0.0.1',
      windowStart: 1_790_000_000_000,
      count: 2,
      previousCount: 1,
      expiresAt: 2e9,
    },
  }),
  slugClaim: () => ({
    doc: 'SlugClaim',
    item: { kind: 'audience', slug: `defi-${id().toLowerCase()}`, ownerId: id() },
  }),
  stream: () => ({
    doc: 'Stream',
    item: { id: id(), name: 'The Block #1', url: `https://example.org/${id()}.xml`, createdAt: at },
  }),
  streamUrl: () => ({
    doc: 'StreamUrl',
    item: { url: `https://example.org/${id()}.xml`, streamId: id() },
  }),
  story: () => ({
    doc: 'Story',
    item: {
      id: id(),
      headline: 'Umbra bridge drained of $40 million',
      summary: 'Attackers drained the bridge.',
      members: [
        {
          articleId: id(),
          source: 'The Block',
          link: `https://example.org/news/${id()}`,
          title: 'Umbra bridge drained of $40 million',
          publishedAt: at,
          text: 'Attackers drained the bridge.',
        },
      ],
      sourceCount: 1,
      firstAt: at,
      latestAt: at,
      revision: 1,
      centroid: '{"umbra":0.7}',
    },
  }),
  sentStories: () => ({
    doc: 'SentStories',
    item: {
      subscriberId: id(),
      stories: [{ storyId: id(), sourceCount: 2, sentAt: at }],
      version: 1,
    },
  }),
  storyBuilderLease: () => ({
    doc: 'StoryBuilderLease',
    item: { holder: id(), until: at, written: [id()] },
  }),
  subscriber: () => ({
    doc: 'Subscriber',
    item: {
      id: id(),
      email: `reader-${id().toLowerCase()}@example.org`,
      status: 'pending',
      audienceIds: [id()],
      firstAudienceId: id(),
      createdAt: at,
      updatedAt: at,
    },
  }),
  outboundEmail: () => {
    const emailId = id();
    return {
      doc: 'OutboundEmail',
      item: {
        id: emailId,
        day: new Date(decodeTime(emailId)).toISOString().slice(0, 10),
        kind: 'confirm-subscription',
        subject: 'Confirm your Cluefeed subscription',
        to: `reader-${id().toLowerCase()}@example.org`,
        props: '{"audiences":[]}',
        headers: '{"List-Unsubscribe-Post":"List-Unsubscribe=One-Click"}',
        subscriberId: id(),
        linkVersion: 1,
        status: 'queued',
        attempts: 0,
        nextAttemptAt: at,
        createdAt: at,
      },
    };
  },
  subscriberEmail: () => ({
    doc: 'SubscriberEmail',
    item: { email: `reader-${id().toLowerCase()}@example.org`, subscriberId: id() },
  }),
  user: () => ({
    doc: 'User',
    item: {
      id: id(),
      name: 'Ada Lovelace',
      email: `reader-${id().toLowerCase()}@example.org`,
      status: 'Invited',
      isActive: true,
      role: 2,
      descriptors: [{ id: id(), clue: 'I build zk rollups' }],
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      invitationVersion: 2,
      invitedAt: at,
      signupDraft: '{"variant":"","step":"starters","entries":[]}',
      signupDraftRevision: 3,
      feedReadyAt: at,
      createdAt: at,
      updatedAt: at,
    },
  }),
  userEmail: () => ({
    doc: 'UserEmail',
    item: { email: `reader-${id().toLowerCase()}@example.org`, userId: id() },
  }),
  userSearchTerm: () => {
    const userId = id();
    const term = `ada lovelace ${id().toLowerCase()}`;
    return {
      doc: 'UserSearchTerm',
      item: { term, userId, entry: `${term}#${userId}`, terms: [term, 'ada'] },
    };
  },
  userSession: () => ({
    doc: 'UserSession',
    item: {
      tokenHash: 'cd'.repeat(32),
      userId: id(),
      signedInAt: at,
      createdAt: at,
      expiresAt: 2e9,
    },
    vars: { 'sha256(token)': 'cd'.repeat(32) },
  }),
  readerFeed: () => ({
    doc: 'ReaderFeed',
    item: { userId: id(), id: id(), secretHash: 'cd'.repeat(32), createdAt: at },
  }),
  readerToken: () => ({
    doc: 'ReaderToken',
    item: {
      userId: id(),
      slot: 3,
      id: id(),
      name: 'Morning digest',
      tokenHash: 'ef'.repeat(32),
      createdAt: at,
      lastUsedAt: at,
      expiresAt: 2e9,
    },
    vars: { 'slot 0..4': '3' },
  }),
  readerTokenKey: () => ({
    doc: 'ReaderTokenKey',
    item: {
      tokenHash: 'ef'.repeat(32),
      userId: id(),
      slot: 3,
      id: id(),
      lastUsedAt: at,
      expiresAt: 2e9,
    },
    vars: { 'sha256(token)': 'ef'.repeat(32) },
  }),
  audienceSuggestion: () => ({
    doc: 'AudienceSuggestion',
    item: { id: id(), text: 'zk rollup builders', source: 'pre-success', createdAt: at },
  }),
  assistantThread: () => ({
    doc: 'AssistantThread',
    item: {
      id: id(),
      userId: id(),
      category: 'negative_feeback_on_article',
      articleId: id(),
      currentClues: ['I build lending protocols on Ethereum'],
      messageCount: 3,
      createdAt: at,
    },
  }),
  chatMessage: () => ({
    doc: 'ChatMessage',
    item: {
      threadId: id(),
      id: id(),
      role: 'assistant',
      message: '{"cluesToBeAdded":[{"clue":"I run Solana validators"}]}',
      template: 'clues review',
      payload: {
        cluesToBeAdded: [{ clue: 'I run Solana validators' }],
        cluesToBeRemoved: [],
        cluesToRemain: [{ clue: 'I research MEV' }],
      },
      doNotSkip: false,
      createdAt: at,
    },
  }),
  sentenceStarter: () => ({
    doc: 'SentenceStarter',
    item: {
      id: id(),
      name: 'I build',
      ordering: 0,
      pointers: [
        { name: 'protocols for', ordering: 1, examples: ['lending on Ethereum'] },
        { ordering: 2, examples: ['zk proving systems'] },
      ],
      createdAt: at,
    },
  }),
  waitlistEntry: () => ({
    doc: 'WaitlistEntry',
    item: { email: `reader-${id().toLowerCase()}@example.org`, createdAt: at },
  }),
};

type KeyFormat = { pk: string; sk: string; gsi1pk: string; gsi1sk: string };

/** The "Entities and keys" table of docs/data-model.md, by entity name. */
function documentedKeys(): Map<string, KeyFormat> {
  const text = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');
  const section = text.split('## Entities and keys')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, KeyFormat>();
  for (const line of section.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/`/g, ''));
    if (cells.length < 5 || cells[0] === 'entity' || /^-+$/.test(cells[0]!)) continue;
    const [name, pk, sk, gsi1pk, gsi1sk] = cells as [string, string, string, string, string];
    rows.set(name, { pk, sk, gsi1pk, gsi1sk });
  }
  return rows;
}

/** A documented key with its placeholders filled from the item (or the sample's vars). */
function render(format: string, sample: Sample): string | undefined {
  if (!format) return undefined;
  return format.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = sample.vars?.[name] ?? sample.item[name];
    if (value === undefined) throw new Error(`No value for {${name}} in ${sample.doc}`);
    return String(value);
  });
}

const documented = documentedKeys();
const setAttributes = new Set(
  entities.flatMap(({ entity }) =>
    Object.entries(entity.schema.attributes)
      .filter(([, attribute]) => attribute.type === 'set')
      .map(([attribute]) => attribute),
  ),
);

describe('entity keys', () => {
  it('finds every entity file, one entity per file, each with a sample and a documented row', () => {
    expect(entities.length).toBeGreaterThanOrEqual(20);
    for (const file of Object.keys(files)) {
      expect(
        entities.filter((entry) => entry.file === file).length,
        `${file} defines one entity`,
      ).toBe(1);
    }
    const missing = entities.filter(({ name }) => !samples[name]).map(({ name }) => name);
    expect(missing, 'entities without a sample in core/db/keys.test.ts').toEqual([]);
    const undocumented = entities
      .map(({ name }) => samples[name]?.().doc)
      .filter((doc) => doc && !documented.has(doc));
    expect(undocumented, 'entities without a row in docs/data-model.md').toEqual([]);
  });

  it.each(entities.filter(({ name }) => samples[name]).map((entry) => [entry.name, entry]))(
    '%s: keys as documented, attributes round-trip exactly',
    async (name, { entity }) => {
      const sample = samples[name]!();
      const format = documented.get(sample.doc)!;
      const key = { pk: render(format.pk, sample)!, sk: render(format.sk, sample)! };
      const { client, table } = db();
      // Singletons (the active-process slot) may hold another test's item: put it back after.
      const previous = (await client.send(new GetCommand({ TableName: table, Key: key }))).Item;
      try {
        await entity.put(sample.item as never).go();

        const raw = (await client.send(new GetCommand({ TableName: table, Key: key }))).Item;
        expect(raw, `an item at the documented key ${JSON.stringify(key)}`).toBeDefined();
        expect(raw).toMatchObject({ ...key, __edb_e__: name });
        expect(raw!.gsi1pk, 'gsi1pk').toBe(render(format.gsi1pk, sample));
        expect(raw!.gsi1sk, 'gsi1sk').toBe(render(format.gsi1sk, sample));

        const expected = comparable(sample.item);
        const { data: byKey } = await entity.get(sample.item as never).go();
        expect(comparable(byKey as Record<string, unknown>)).toMatchObject(expected);

        // Every index finds the item by its own key and answers the same attributes.
        for (const index of Object.keys(entity.schema.indexes)) {
          const query = entity.query[index]!;
          const { data } = await query(sample.item).go({ pages: 'all' });
          const found = (data as Record<string, unknown>[]).filter((item) =>
            Object.entries(expected).every(
              ([attribute, value]) =>
                JSON.stringify(comparable(item)[attribute]) === JSON.stringify(value),
            ),
          );
          expect(found, `${name} through index ${index}`).toHaveLength(1);
        }
      } finally {
        await client.send(new DeleteCommand({ TableName: table, Key: key }));
        if (previous) await client.send(new PutCommand({ TableName: table, Item: previous }));
      }
    },
  );
});

type QueryChain = { go(options: { pages: 'all' }): Promise<{ data: unknown }> };

/** String sets come back as arrays in any order; compare them sorted (lists keep their order). */
function comparable(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(item).map(([attribute, value]) => [
      attribute,
      value instanceof Set || (Array.isArray(value) && setAttributes.has(attribute))
        ? [...(value as Iterable<unknown>)].map(String).sort()
        : value,
    ]),
  );
}
