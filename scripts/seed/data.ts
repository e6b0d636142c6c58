// Demo content for npm start: realistic web3 audiences, posts and content cards.
export type SeedAuthor = {
  name: string;
  handle: string;
  avatar: string;
  tagLine: string;
  bio: string;
};
export type SeedAudience = {
  key: string; // stable id used only inside this file, e.g. 'defi-builders'
  title: string; // phrase completing "I am one of those who..." e.g. 'build DeFi protocols' (lower-case start, no trailing period)
  slug: string; // lower-case a-z0-9 words joined by single dashes, e.g. 'defi-protocol-builders'
  pastSlugs: string[]; // older slugs that now redirect; EXACTLY ONE audience has one past slug, others []
  tag: string; // mailing-list tag, e.g. 'aud-defi-builders'
  frequency: 'daily' | 'weekly';
  state: 'active' | 'upcoming';
  featured: boolean;
  related: string[]; // keys of 2-4 related audiences
};
export type SeedPost = {
  key: string;
  slug: string; // unique, lower-case a-z0-9 and single dashes, <= 80 chars
  title: string;
  date: string; // ISO timestamp like '2026-11-20T07:30:00.000Z', between 2026-09-01 and 2026-11-21
  teaser: string; // 1-3 sentences, <= 400 chars
  cover: string; // '/covers/<name>.svg', one of the cover files you create
  minutes: number; // integer 2..60
  type: 'article' | 'audio' | 'video';
  audience: string; // audience key (only ACTIVE audiences get posts)
  author: string; // author handle (key of `authors`)
  content?: string; // Markdown body for ORIGINAL posts (no link): 3-6 paragraphs, may use ## headings, lists, **bold**, a [link](https://...) ; 250-600 words
  link?: { url: string; domain: string; comments?: string }; // for PICKED posts (no content): url of the source article, domain like 'blog.ethereum.org', optional comments url (e.g. a forum thread)
};
export type SeedContentCard = {
  date: string; // ISO timestamp
  audience: string; // audience key (active only)
  primary: string; // post key (must belong to the same audience)
  secondary: string[]; // 1-3 post keys of the same audience, distinct from primary
  primaryStoriesHeader: string; // short header e.g. 'Story of the day'
  secondaryStoriesHeader: string; // e.g. 'Also worth your five minutes'
  verbalDescriptor: string; // one editorial sentence explaining why this bundle matters to this audience, <= 200 chars
};

// ---------------------------------------------------------------------------
// Authors (fictional)
// ---------------------------------------------------------------------------

export const authors: Record<string, SeedAuthor> = {
  mara_eth: {
    name: 'Mara Okonkwo',
    handle: 'mara_eth',
    avatar: '/avatars/mara_eth.svg',
    tagLine: 'DeFi mechanism designer. Reads risk parameters for fun.',
    bio: 'Mara spent six years building trading systems before moving on-chain to work on lending and stablecoin protocols. She writes about mechanism design, payments and the unglamorous plumbing that keeps DeFi solvent.',
  },
  devin_zk: {
    name: 'Devin Achterberg',
    handle: 'devin_zk',
    avatar: '/avatars/devin_zk.svg',
    tagLine: 'Rollup and proving-systems engineer.',
    bio: 'Devin works on rollup infrastructure, from batch posting to fault and validity proofs. He curates research on zero-knowledge systems and tries to explain it without skipping the parts that matter.',
  },
  priya_onchain: {
    name: 'Priya Raghunathan',
    handle: 'priya_onchain',
    avatar: '/avatars/priya_onchain.svg',
    tagLine: 'On-chain analyst. Queries first, conclusions second.',
    bio: 'Priya builds analytics pipelines for protocols and studies market structure, from MEV to order flow. She cares about methodology and will ask how your chart was made before she believes it.',
  },
  tomas_audits: {
    name: 'Tomás Lindqvist',
    handle: 'tomas_audits',
    avatar: '/avatars/tomas_audits.svg',
    tagLine: 'Smart contract auditor across EVM and Solana.',
    bio: 'Tomás has reviewed lending markets, bridges and Solana programs as an independent auditor. He writes about vulnerability classes, review process and what teams can do before the auditors arrive.',
  },
  aiko_gov: {
    name: 'Aiko Tanabe',
    handle: 'aiko_gov',
    avatar: '/avatars/aiko_gov.svg',
    tagLine: 'Governance researcher and policy watcher.',
    bio: 'Aiko has served as a delegate and governance facilitator for several DAOs. She follows digital asset policy closely and translates consultations and frameworks into what builders actually need to know.',
  },
  soledad_xyz: {
    name: 'Soledad Reyes',
    handle: 'soledad_xyz',
    avatar: '/avatars/soledad_xyz.svg',
    tagLine: 'Product designer for wallets, collector of generative art.',
    bio: 'Soledad designs onboarding and signing flows for self-custody wallets. In her spare time she collects long-form generative art and writes about provenance, storage and the artists behind the code.',
  },
};

// ---------------------------------------------------------------------------
// Audiences
// ---------------------------------------------------------------------------

export const audiences: SeedAudience[] = [
  {
    key: 'defi-builders',
    title: 'build DeFi protocols',
    slug: 'defi-protocol-builders',
    pastSlugs: [],
    tag: 'aud-defi-builders',
    frequency: 'daily',
    state: 'active',
    featured: true,
    related: ['security-auditors', 'mev-searchers', 'stablecoin-payments'],
  },
  {
    key: 'genart-collectors',
    title: 'collect generative art on-chain',
    slug: 'generative-art-collectors',
    pastSlugs: [],
    tag: 'aud-genart-collectors',
    frequency: 'weekly',
    state: 'active',
    featured: true,
    related: ['wallet-ux', 'nft-gaming'],
  },
  {
    key: 'dao-governance',
    title: 'steward DAO governance',
    slug: 'dao-governance-stewards',
    pastSlugs: ['dao-delegates'],
    tag: 'aud-dao-governance',
    frequency: 'weekly',
    state: 'active',
    featured: true,
    related: ['crypto-policy', 'defi-builders', 'onchain-analysts'],
  },
  {
    key: 'rollup-engineers',
    title: 'engineer layer-2 rollups',
    slug: 'rollup-engineers',
    pastSlugs: [],
    tag: 'aud-rollup-engineers',
    frequency: 'daily',
    state: 'active',
    featured: true,
    related: ['zk-researchers', 'mev-searchers', 'restaking-operators'],
  },
  {
    key: 'mev-searchers',
    title: 'run MEV searching strategies',
    slug: 'mev-searchers',
    pastSlugs: [],
    tag: 'aud-mev-searchers',
    frequency: 'daily',
    state: 'active',
    featured: true,
    related: ['defi-builders', 'rollup-engineers', 'onchain-analysts'],
  },
  {
    key: 'stablecoin-payments',
    title: 'build stablecoin payment rails',
    slug: 'stablecoin-payment-builders',
    pastSlugs: [],
    tag: 'aud-stablecoin-payments',
    frequency: 'weekly',
    state: 'active',
    featured: true,
    related: ['crypto-policy', 'wallet-ux', 'rwa-tokenization'],
  },
  {
    key: 'security-auditors',
    title: 'audit smart contracts',
    slug: 'smart-contract-auditors',
    pastSlugs: [],
    tag: 'aud-security-auditors',
    frequency: 'daily',
    state: 'active',
    featured: true,
    related: ['defi-builders', 'solana-devs', 'zk-researchers'],
  },
  {
    key: 'crypto-policy',
    title: 'track crypto policy and regulation',
    slug: 'crypto-policy-watchers',
    pastSlugs: [],
    tag: 'aud-crypto-policy',
    frequency: 'weekly',
    state: 'active',
    featured: true,
    related: ['dao-governance', 'stablecoin-payments', 'rwa-tokenization'],
  },
  {
    key: 'solana-devs',
    title: 'ship programs on Solana',
    slug: 'solana-developers',
    pastSlugs: [],
    tag: 'aud-solana-devs',
    frequency: 'daily',
    state: 'active',
    featured: true,
    related: ['security-auditors', 'defi-builders'],
  },
  {
    key: 'zk-researchers',
    title: 'research zero-knowledge proofs',
    slug: 'zk-proof-researchers',
    pastSlugs: [],
    tag: 'aud-zk-researchers',
    frequency: 'weekly',
    state: 'active',
    featured: true,
    related: ['rollup-engineers', 'security-auditors'],
  },
  {
    key: 'onchain-analysts',
    title: 'analyse on-chain data',
    slug: 'on-chain-data-analysts',
    pastSlugs: [],
    tag: 'aud-onchain-analysts',
    frequency: 'weekly',
    state: 'active',
    featured: false,
    related: ['mev-searchers', 'dao-governance', 'defi-builders'],
  },
  {
    key: 'wallet-ux',
    title: 'design wallet experiences',
    slug: 'wallet-ux-designers',
    pastSlugs: [],
    tag: 'aud-wallet-ux',
    frequency: 'weekly',
    state: 'active',
    featured: false,
    related: ['stablecoin-payments', 'genart-collectors', 'security-auditors'],
  },
  {
    key: 'nft-gaming',
    title: 'build games with on-chain assets',
    slug: 'nft-game-builders',
    pastSlugs: [],
    tag: 'aud-nft-gaming',
    frequency: 'weekly',
    state: 'upcoming',
    featured: false,
    related: ['genart-collectors', 'wallet-ux', 'solana-devs'],
  },
  {
    key: 'rwa-tokenization',
    title: 'tokenize real-world assets',
    slug: 'rwa-tokenization-builders',
    pastSlugs: [],
    tag: 'aud-rwa-tokenization',
    frequency: 'weekly',
    state: 'upcoming',
    featured: false,
    related: ['stablecoin-payments', 'crypto-policy', 'defi-builders'],
  },
  {
    key: 'restaking-operators',
    title: 'run restaking and validator infrastructure',
    slug: 'restaking-node-operators',
    pastSlugs: [],
    tag: 'aud-restaking-operators',
    frequency: 'daily',
    state: 'upcoming',
    featured: false,
    related: ['rollup-engineers', 'security-auditors'],
  },
];

// ---------------------------------------------------------------------------
// Posts
// ---------------------------------------------------------------------------

export const posts: SeedPost[] = [
  // --- DeFi builders -------------------------------------------------------
  {
    key: 'defi-intent-solvers',
    slug: 'intent-based-swaps-solver-competition',
    title: 'Intent-based swaps, six months in: what solver competition really looks like',
    date: '2026-09-03T08:00:00.000Z',
    teaser:
      'A close look at how solver networks have evolved since intent-based swapping went mainstream: who wins auctions, how surplus is shared with users and why a handful of solvers still settle most orders.',
    cover: '/covers/orbit.svg',
    minutes: 7,
    type: 'article',
    audience: 'defi-builders',
    author: 'mara_eth',
    link: {
      url: 'https://paragraph.xyz/@liquiditynotes/intent-solvers-six-months-in',
      domain: 'paragraph.xyz',
      comments: 'https://forum.liquiditynotes.xyz/t/solver-competition-discussion/412',
    },
  },
  {
    key: 'defi-oracle-latency',
    slug: 'oracle-latency-is-a-design-parameter',
    title: 'Oracle latency is a design parameter, not an afterthought',
    date: '2026-09-15T07:30:00.000Z',
    teaser:
      'The price your protocol acts on is always a few seconds old. Lending markets that budget for that staleness explicitly liquidate more fairly and leak less value to arbitrageurs.',
    cover: '/covers/waves.svg',
    minutes: 3,
    type: 'article',
    audience: 'defi-builders',
    author: 'mara_eth',
    content: `Every lending protocol eventually learns the same lesson: the price you act on is never the price the market is trading at. It is the price someone published some seconds ago, filtered through a heartbeat, a deviation threshold and whatever congestion the chain happened to have that block. Treating that gap as a rounding error is how liquidations misfire and how arbitrageurs quietly drain value from your pools.

## Push, pull and the space between

Push oracles publish on a schedule or when the price moves past a threshold. They are simple to integrate, but their staleness is bounded by the heartbeat, and in volatile markets the deviation trigger fires exactly when block space is most expensive. Pull oracles flip the model: the user, or a keeper, brings a signed price update into the transaction that needs it. Latency drops to whatever the publisher's network can deliver, but you now have to decide how fresh is fresh enough, and reject anything older.

## Questions to answer before you pick

- **What is the maximum staleness you will accept?** Write it down as a number of seconds and enforce it in the contract, not in the front-end.
- **Who pays for updates?** If liquidators pay, make sure liquidation incentives cover the update cost even when gas spikes.
- **What happens when the feed stops?** A paused market is usually better than a market running on a price that is ten minutes old.
- **Can the update itself be front-run?** If anyone can submit a newer price, someone will choose the most profitable moment to do it.

## Budget latency like you budget collateral

The most robust designs treat oracle delay as part of the risk model. Loan-to-value ratios are set with the expected staleness in mind, so a two-minute lag on a volatile asset translates directly into a lower borrowing limit. That framing makes trade-offs explicit: a faster feed can justify a more capital-efficient market, and a slower one is not a bug as long as the parameters account for it.

If you want to go deeper, the [economics category on ethresear.ch](https://ethresear.ch/c/economics) is a good place to start reading. And if your protocol has never simulated a day where the oracle lags by five minutes, schedule that exercise before the market does it for you.`,
  },
  {
    key: 'defi-isolated-markets',
    slug: 'isolated-lending-markets-and-risk-curators',
    title: 'Isolated lending markets and the return of the risk curator',
    date: '2026-09-24T09:15:00.000Z',
    teaser:
      'Permissionless, isolated lending markets push risk decisions out of governance and onto curators who package markets into vaults. This piece maps the incentives, the failure modes and what depositors should ask a curator.',
    cover: '/covers/grid.svg',
    minutes: 9,
    type: 'article',
    audience: 'defi-builders',
    author: 'mara_eth',
    link: {
      url: 'https://mirror.xyz/riskdesk.eth/isolated-lending-and-risk-curators',
      domain: 'mirror.xyz',
    },
  },
  {
    key: 'defi-liquidations-podcast',
    slug: 'rate-curve-liquidation-engines',
    title: 'Liquidation engines, with the people who keep them running',
    date: '2026-10-06T06:00:00.000Z',
    teaser:
      'This episode of Rate Curve sits down with two keeper operators and a protocol risk lead to talk Dutch auctions versus fixed bonuses, bad-debt backstops and what happens to liquidations when gas spikes.',
    cover: '/covers/rings.svg',
    minutes: 52,
    type: 'audio',
    audience: 'defi-builders',
    author: 'mara_eth',
    link: {
      url: 'https://ratecurve.fm/episodes/liquidation-engines',
      domain: 'ratecurve.fm',
    },
  },
  {
    key: 'defi-hooks-video',
    slug: 'writing-your-first-amm-hook-live',
    title: 'Writing your first AMM hook: a live-coded walkthrough',
    date: '2026-10-17T12:00:00.000Z',
    teaser:
      'A 35-minute session that builds a dynamic-fee hook from an empty repository, tests it against a forked pool and explains the permission flags that trip most teams up on their first deployment.',
    cover: '/covers/blocks.svg',
    minutes: 36,
    type: 'video',
    audience: 'defi-builders',
    author: 'mara_eth',
    link: {
      url: 'https://buildersbench.tv/talks/first-amm-hook-live',
      domain: 'buildersbench.tv',
    },
  },
  {
    key: 'defi-fee-switch',
    slug: 'designing-a-fee-switch-that-survives-governance',
    title: 'Designing a fee switch that survives governance',
    date: '2026-10-29T07:30:00.000Z',
    teaser:
      'Turning on a protocol fee looks like a one-line proposal. In practice it is a negotiation between LPs, token holders and integrators, and the designs that last are bounded, documented and measured.',
    cover: '/covers/prism.svg',
    minutes: 3,
    type: 'article',
    audience: 'defi-builders',
    author: 'mara_eth',
    content: `Turning on a protocol fee sounds like a single parameter change. In practice it is a negotiation between liquidity providers who will see lower returns, token holders who want a share of revenue, and integrators who quietly route around any venue that gets more expensive. Teams that treat the fee switch as a one-line proposal tend to relitigate it every quarter.

## Make the fee a range, not a number

Hard-coding a single fee forces governance to vote on every adjustment. A better pattern is to define a bounded range in the contract, for example zero to a quarter of the LP fee, and let a smaller, accountable role move within it. Governance votes on the bounds and on who holds the role; day-to-day tuning happens without a forum war.

## Decide where the money goes before it arrives

Revenue with no destination becomes a political prize. Before the switch is flipped, publish:

1. **The recipient contract** and who can withdraw from it.
2. **The intended use**, whether buybacks, a grants budget, an insurance fund or simple accumulation.
3. **A review date**, so the decision is revisited on schedule rather than in response to a bad week.

## Measure the liquidity response

The honest risk of a fee switch is that liquidity leaves. Instrument the pools you are changing: track depth at two per cent from the mid price, the share of volume routed through aggregators, and how quickly LP positions are withdrawn after the change. Start with the pools where you hold the strongest position and expand only if depth holds up.

## Communicate like an integrator is reading

Aggregators, wallets and other protocols price your venue into their routing. Give them a technical notice with the exact block or timestamp, the new fee parameters and a test deployment they can simulate against. Surprising your integrators is the fastest way to lose the volume the fee was supposed to capture.

A fee switch that survives is one that was boring when it shipped: bounded, documented, measured and announced well in advance.`,
  },
  {
    key: 'defi-points-programs',
    slug: 'points-programmes-after-the-airdrop-hangover',
    title: 'Points programmes after the airdrop hangover',
    date: '2026-11-09T08:45:00.000Z',
    teaser:
      'Points were supposed to reward real users and ended up rewarding farmers. A look at how protocols are redesigning loyalty schemes with retention-weighted scoring, sybil filtering and clearer conversion terms.',
    cover: '/covers/peaks.svg',
    minutes: 8,
    type: 'article',
    audience: 'defi-builders',
    author: 'mara_eth',
    link: {
      url: 'https://tokenomicsweekly.substack.com/p/points-after-the-airdrop-hangover',
      domain: 'tokenomicsweekly.substack.com',
    },
  },
  {
    key: 'defi-invariant-testing',
    slug: 'five-invariants-every-lending-protocol-should-fuzz',
    title: 'Five invariants every lending protocol should fuzz',
    date: '2026-11-18T07:30:00.000Z',
    teaser:
      'Unit tests check the paths you thought about; invariant tests check everything else. These five properties catch a surprising share of serious lending bugs, and they are cheap to write.',
    cover: '/covers/lattice.svg',
    minutes: 3,
    type: 'article',
    audience: 'defi-builders',
    author: 'mara_eth',
    content: `Unit tests tell you that the functions you thought about behave the way you expected. Invariant tests tell you whether the system still makes sense after thousands of calls you did not think about. For lending protocols, a handful of properties catch a surprising share of serious bugs. Here are the five we would write first.

## The five properties

1. **Solvency holds after every action.** The sum of all deposits, plus accrued interest owed to suppliers, should never exceed what the protocol holds plus what borrowers owe. Check it after every call in the sequence, not only at the end.
2. **Healthy positions cannot be liquidated.** If an account's health factor is above one, any liquidation call against it must revert. Fuzz with random price moves between steps so the fuzzer explores positions right at the boundary.
3. **Interest only moves forward.** Borrow and supply indices should never decrease. A decreasing index usually points to a rounding direction bug or an unchecked cast.
4. **Rounding always favours the protocol.** Every conversion between shares and assets should round against the user: round down when minting shares, round up when burning them. A fuzzer that deposits and withdraws dust amounts in a loop will find the first place you got this wrong.
5. **Nobody can withdraw more than they put in.** Track each actor's net deposits in your test harness as ghost variables. No actor should end a run with more than their deposits plus legitimately earned interest.

## Practical notes

Keep the handler contracts small and bound the inputs sensibly, so the fuzzer spends its time on meaningful states rather than reverts. Log the call sequence on failure so a broken invariant is reproducible. Run the suite in CI with a modest depth on every pull request and a much longer campaign nightly.

The [Foundry book](https://book.getfoundry.sh) covers the mechanics of invariant testing well. The hard part is choosing the properties, and these five are a solid start.`,
  },

  // --- Security auditors ---------------------------------------------------
  {
    key: 'sec-readonly-reentrancy',
    slug: 'read-only-reentrancy-still-catching-teams-out',
    title: 'Read-only reentrancy is still catching teams out',
    date: '2026-09-02T07:00:00.000Z',
    teaser:
      'View functions that read mid-update state can be weaponised against any protocol that trusts them as a price source. A walkthrough of the pattern, how to spot it in review and the guard that closes it.',
    cover: '/covers/lattice.svg',
    minutes: 8,
    type: 'article',
    audience: 'security-auditors',
    author: 'tomas_audits',
    link: {
      url: 'https://securitymemo.substack.com/p/read-only-reentrancy-still-catching-teams-out',
      domain: 'securitymemo.substack.com',
    },
  },
  {
    key: 'sec-audit-scope',
    slug: 'scoping-an-audit-two-page-document',
    title: 'Scoping an audit: the two-page document that saves two weeks',
    date: '2026-09-12T07:30:00.000Z',
    teaser:
      'Most audits lose their first days to questions the client could have answered in writing. A short scoping document with the commit, the trust model and your invariants buys that time back.',
    cover: '/covers/grid.svg',
    minutes: 3,
    type: 'article',
    audience: 'security-auditors',
    author: 'tomas_audits',
    content: `Most audit engagements lose their first days to questions that the client could have answered in writing. Which commit is in scope? Which contracts are forks of well-reviewed code? What is the trust model for the admin role? When these answers arrive piecemeal over chat, reviewers spend their most alert hours reconstructing context instead of finding bugs.

## What goes in the document

A good scoping document fits on two pages and covers:

- **The exact commit hash** and a list of files in scope, with line counts.
- **What changed** since any previous audit, ideally as a diff link.
- **External dependencies** and which of them you treat as trusted.
- **Privileged roles**, what each can do, and whether it sits behind a multisig or timelock.
- **Known issues** you have already accepted, so reviewers do not spend time rediscovering them.
- **The invariants you believe hold.** This is the most useful section of all, because it tells auditors what you would consider a critical break.

## Freeze the code

Auditing a moving target is expensive for everyone. Agree on a freeze date and keep feature work on a separate branch. If a fix must land mid-review, send it as a self-contained diff with an explanation so it can be reviewed in context.

## Talk about deployment early

Many incidents happen not in the audited logic but in how it is configured on-chain: initialisation parameters, oracle addresses, role assignments. Include your deployment scripts in scope, or at least share them, and ask reviewers to check the order of operations.

## Leave room for the fix review

Budget time after the report for the auditors to review your fixes. A finding marked resolved on the basis of an unreviewed patch is one of the more common ways a known bug ships to production.

Two pages, written before kickoff, usually buys back a week or more of review time. It also forces the team to articulate its own assumptions, which occasionally surfaces a bug before the auditors even start.`,
  },
  {
    key: 'sec-incident-response-podcast',
    slug: 'war-room-incident-response-when-funds-are-at-risk',
    title: 'War room: running incident response when funds are at risk',
    date: '2026-09-26T05:30:00.000Z',
    teaser:
      "On this episode of The Auditor's Room, three responders walk through the first hour of a live exploit: who gets paged, when to pause, how to work with white-hat rescuers and what to say publicly before you know everything.",
    cover: '/covers/rings.svg',
    minutes: 44,
    type: 'audio',
    audience: 'security-auditors',
    author: 'tomas_audits',
    link: {
      url: 'https://auditorsroom.fm/episodes/war-room-incident-response',
      domain: 'auditorsroom.fm',
    },
  },
  {
    key: 'sec-formal-verification-video',
    slug: 'formal-verification-for-the-rest-of-us',
    title: 'Formal verification for the rest of us',
    date: '2026-10-08T13:00:00.000Z',
    teaser:
      'A practical talk on writing specifications for a token vault, running them through a symbolic prover and interpreting the counterexamples. No PhD required, but bring coffee.',
    cover: '/covers/prism.svg',
    minutes: 41,
    type: 'video',
    audience: 'security-auditors',
    author: 'tomas_audits',
    link: {
      url: 'https://proofsandpatterns.tv/talks/formal-verification-for-the-rest-of-us',
      domain: 'proofsandpatterns.tv',
    },
  },
  {
    key: 'sec-proxy-storage',
    slug: 'storage-collisions-in-upgradeable-proxies',
    title: 'Storage collisions in upgradeable proxies: a field guide',
    date: '2026-10-19T08:00:00.000Z',
    teaser:
      'Upgradeable contracts remain a top source of critical findings. This guide covers unstructured storage slots, namespaced layouts and the tooling that flags a dangerous layout change before it is deployed.',
    cover: '/covers/blocks.svg',
    minutes: 11,
    type: 'article',
    audience: 'security-auditors',
    author: 'tomas_audits',
    link: {
      url: 'https://mirror.xyz/slotwatch.eth/storage-collisions-field-guide',
      domain: 'mirror.xyz',
    },
  },
  {
    key: 'sec-contest-vs-firm',
    slug: 'audit-contests-versus-firm-reviews',
    title: 'Audit contests versus firm reviews: when to use which',
    date: '2026-10-30T07:30:00.000Z',
    teaser:
      'Firm reviews buy depth; contests buy breadth. The strongest security programmes use both, in the right order, and neither helps much if the code is still changing every week.',
    cover: '/covers/mesh.svg',
    minutes: 3,
    type: 'article',
    audience: 'security-auditors',
    author: 'tomas_audits',
    content: `Teams preparing for launch often ask whether they should hire an audit firm or run a public contest. The honest answer is that the two are good at different things, and the strongest security programmes use both at different stages.

## What firm reviews do well

A dedicated team spends a fixed period inside your codebase, builds a mental model of the whole system and can ask your engineers questions as they go. That depth is valuable for complex designs where bugs live in the interaction between components rather than in a single function. Firm reviews also produce a coherent report with severity reasoning that you can share with integrators and users.

## What contests do well

Contests trade depth for breadth. Dozens of independent reviewers look at the same code with different habits and tools, and the reward structure pushes them toward findings that matter. They are particularly good at catching classic bug classes that a single team might miss on a tired afternoon. The downside is noise: you will triage many duplicates and low-value submissions, and someone on your side needs time set aside to do it.

## A sequence that works

1. **Internal review and invariant tests** until the team stops finding issues itself.
2. **A firm review** once the design is stable, to catch architectural problems while they are still cheap to fix.
3. **A contest** on the post-fix code, to put many eyes on the final version.
4. **A standing bug bounty** from launch day onward, sized so that reporting is always more attractive than exploiting.

## Signals you are not ready

If your documentation is thin, your tests are sparse or the code is still changing weekly, neither format will give you good value. Reviewers will spend their time understanding intent instead of breaking assumptions. Fix that first; it is the cheapest security work you will ever do.`,
  },
  {
    key: 'sec-signature-replay',
    slug: 'signature-replay-across-chains-permit-edge-cases',
    title: 'Signature replay across chains: the permit edge cases',
    date: '2026-11-10T07:15:00.000Z',
    teaser:
      'Domain separators cached at deployment, missing chain IDs and nonces shared across forks: a catalogue of replay bugs in signature-based approvals, with the test cases that catch them.',
    cover: '/covers/orbit.svg',
    minutes: 9,
    type: 'article',
    audience: 'security-auditors',
    author: 'tomas_audits',
    link: {
      url: 'https://securitymemo.substack.com/p/signature-replay-across-chains',
      domain: 'securitymemo.substack.com',
      comments: 'https://forum.securitymemo.xyz/t/permit-replay-test-cases/88',
    },
  },
  {
    key: 'sec-postmortem-template',
    slug: 'a-post-mortem-template-that-does-not-assign-blame',
    title: "A post-mortem template that doesn't assign blame",
    date: '2026-11-19T07:30:00.000Z',
    teaser:
      'Post-mortems written under pressure tend to be vague or defensive. Agreeing the template before anything goes wrong makes the eventual write-up clearer, more honest and more useful to everyone else.',
    cover: '/covers/waves.svg',
    minutes: 3,
    type: 'article',
    audience: 'security-auditors',
    author: 'tomas_audits',
    content: `When an incident hits a protocol, the public post-mortem is often written under pressure, in a hurry and with one eye on reputation. The result tends to be either vague or defensive. A template agreed in advance, while nobody is stressed, makes the eventual write-up clearer and more useful to the rest of the ecosystem.

## The sections

- **Summary.** Three sentences: what happened, who was affected and the current status. Write it last.
- **Timeline.** Timestamps in UTC, from the first anomalous transaction to the final remediation. Include when the team became aware, not only when the exploit began; the gap is itself a finding.
- **Root cause.** Describe the flaw in terms another engineer could reproduce. Link the vulnerable code at the exact commit. Avoid phrases like "sophisticated attack" that explain nothing.
- **Detection and response.** How was it noticed? Which runbooks were used, and where did they fall short? Who had the keys needed to pause, and how long did it take to reach them?
- **Impact.** Affected users and assets, stated as precisely as possible, and the plan for making users whole if there is one.
- **What we are changing.** Concrete actions with owners and dates. "Improve monitoring" is not an action; "alert on any single transaction that moves more than a set share of pool reserves" is.

## Language matters

Write about systems, not people. "The deployment script did not verify that the initialiser was called" leads to a fix. "An engineer forgot to call the initialiser" leads to someone being more careful for a few weeks. The first version is also more honest, because the process allowed the mistake.

## Publish the template

Putting your template in your public repository before you need it tells users you have thought about failure. It also gives your team a checklist to work through during the worst week of the year, which is exactly when checklists help most.`,
  },

  // --- Rollup engineers ----------------------------------------------------
  {
    key: 'rollup-blob-fees',
    slug: 'blob-fee-markets-under-sustained-load',
    title: 'Blob fee markets under sustained load: notes from a sequencer team',
    date: '2026-09-05T08:00:00.000Z',
    teaser:
      "How a rollup's batch poster adapts when blob prices climb for hours rather than minutes: compression choices, switching between blobs and calldata, and the cost model the team now uses to decide when to post.",
    cover: '/covers/waves.svg',
    minutes: 10,
    type: 'article',
    audience: 'rollup-engineers',
    author: 'devin_zk',
    link: {
      url: 'https://sequenced.substack.com/p/blob-fee-markets-under-sustained-load',
      domain: 'sequenced.substack.com',
      comments: 'https://research.rollupcollective.org/t/blob-posting-strategies/231',
    },
  },
  {
    key: 'rollup-based-sequencing',
    slug: 'based-sequencing-explained-without-the-hype',
    title: 'Based sequencing, explained without the hype',
    date: '2026-09-19T07:30:00.000Z',
    teaser:
      'Letting layer-1 proposers order your rollup buys liveness and credible neutrality, and costs you fast confirmations and sequencer revenue. A clear-eyed look at the trade.',
    cover: '/covers/orbit.svg',
    minutes: 3,
    type: 'article',
    audience: 'rollup-engineers',
    author: 'devin_zk',
    content: `A based rollup hands the job of ordering its transactions to the proposers of the layer-1 chain. Instead of running its own sequencer, it lets whoever builds the next L1 block also decide which rollup transactions go in and in what order. The idea is simple; the consequences are worth unpacking.

## What you gain

- **Liveness inherited from L1.** There is no single sequencer that can go down or censor. If L1 is producing blocks, the rollup can progress.
- **A simpler trust story.** Users do not have to reason about a separate operator set with its own incentives.
- **Potential for synchronous composability.** Because the same party orders L1 and multiple based rollups, atomic interactions across them become possible in principle.

## What you give up

- **Fast soft confirmations.** A centralised sequencer can promise inclusion within milliseconds. A based rollup, out of the box, confirms at L1 block times. Preconfirmation schemes aim to close this gap, but they reintroduce a set of parties who make promises and must be held to them.
- **Sequencer revenue.** Ordering rights are valuable, and a based design passes much of that value to L1 proposers and builders rather than to the rollup's own treasury.
- **Control over ordering policy.** If you wanted first-come-first-served ordering or a custom auction, you now depend on what L1 builders are willing to do.

## The honest framing

Based sequencing is not a free upgrade; it is a choice about which properties matter most. For a rollup whose users care about censorship resistance and credible neutrality above all, it is compelling. For an app-specific chain that needs fast confirmations and wants to capture its own MEV, a dedicated sequencer with a strong forced-inclusion path may still be the better fit.

The most interesting work right now is in preconfirmations: how proposers commit to including a transaction ahead of their slot, and how those commitments are enforced. That is where the user experience of based rollups will be won or lost.`,
  },
  {
    key: 'rollup-fault-proofs-video',
    slug: 'interactive-fault-proofs-bisection-game',
    title: 'Interactive fault proofs: the bisection game, step by step',
    date: '2026-10-02T14:00:00.000Z',
    teaser:
      'An explainer that animates a full dispute, from the first challenged output root down to a single instruction executed on-chain, and discusses the bonds and clocks that keep the game honest.',
    cover: '/covers/lattice.svg',
    minutes: 28,
    type: 'video',
    audience: 'rollup-engineers',
    author: 'devin_zk',
    link: {
      url: 'https://blockspacebench.tv/explainers/interactive-fault-proofs',
      domain: 'blockspacebench.tv',
    },
  },
  {
    key: 'rollup-shared-sequencers-podcast',
    slug: 'shared-sequencers-and-the-interoperability-question',
    title: 'Shared sequencers and the interoperability question',
    date: '2026-10-14T06:00:00.000Z',
    teaser:
      'Two protocol designers debate whether shared sequencing is the shortest path to cross-rollup atomicity or a new point of centralisation, and what the user experience looks like in either world.',
    cover: '/covers/mesh.svg',
    minutes: 57,
    type: 'audio',
    audience: 'rollup-engineers',
    author: 'devin_zk',
    link: {
      url: 'https://layertwo.fm/episodes/shared-sequencers-interop',
      domain: 'layertwo.fm',
    },
  },
  {
    key: 'rollup-forced-inclusion',
    slug: 'forced-inclusion-the-escape-hatch-users-never-test',
    title: 'Forced inclusion: the escape hatch users never test',
    date: '2026-10-27T07:30:00.000Z',
    teaser:
      'Almost every rollup advertises a way to bypass a censoring sequencer. Almost none exercise it regularly. Here is what to check on your chain and how to prove the hatch actually opens.',
    cover: '/covers/blocks.svg',
    minutes: 3,
    type: 'article',
    audience: 'rollup-engineers',
    author: 'devin_zk',
    content: `Almost every rollup with a centralised sequencer advertises a forced inclusion mechanism. If the sequencer ignores your transaction, you can submit it directly to a contract on layer 1, and after a delay the rollup must include it. It is the property that turns "trust the sequencer" into "trust the sequencer, but only for a bounded time". It is also, in our experience, the least exercised path in most rollup stacks.

## Why it rots

Forced inclusion is rarely used because the sequencer is usually working. Code paths that nobody calls in production drift: gas costs change, front-ends never implement the flow, and documentation refers to contract functions that were renamed two upgrades ago. When a user finally needs the hatch, it may technically exist and still be practically unusable.

## What to check on your chain

1. **Can a normal user do it?** Is there a tool, script or interface that submits a forced transaction without reading the contracts?
2. **What is the delay?** Users should know exactly how long the sequencer has before inclusion becomes mandatory.
3. **What does it cost?** Posting to L1 during congestion can be expensive. Document a realistic range.
4. **Does withdrawal work through it?** The critical case is a user forcing a withdrawal while the sequencer is hostile or offline.

## Test it on a schedule

Treat forced inclusion like a backup restore: untested backups are not backups. Run a scheduled job that submits a forced transaction on testnet and on mainnet at least monthly, and alert if it is not included within the expected window. Publish the results. It costs very little and gives users concrete evidence that the escape hatch works.

## Why it matters for decentralisation

Risk frameworks such as [L2BEAT's](https://l2beat.com) pay close attention to whether users can exit without operator cooperation. A mechanism that exists on paper but fails in practice should not earn that credit. Exercising the path regularly is how a rollup team earns it honestly.`,
  },
  {
    key: 'rollup-node-pruning',
    slug: 'keeping-l2-full-nodes-small-pruning-strategies',
    title: 'Keeping L2 full nodes small: pruning strategies that work',
    date: '2026-11-13T09:00:00.000Z',
    teaser:
      'State growth on busy rollups is making full nodes expensive to run. This post compares path-based storage, history expiry and snapshot sync, with the operational trade-offs each one brings.',
    cover: '/covers/grid.svg',
    minutes: 12,
    type: 'article',
    audience: 'rollup-engineers',
    author: 'devin_zk',
    link: {
      url: 'https://hackmd.io/@nodeops/l2-pruning-strategies',
      domain: 'hackmd.io',
    },
  },

  // --- MEV searchers -------------------------------------------------------
  {
    key: 'mev-ofa-compared',
    slug: 'order-flow-auctions-compared-who-captures-the-backrun',
    title: 'Order flow auctions, compared: who captures the backrun?',
    date: '2026-09-04T08:30:00.000Z',
    teaser:
      'A side-by-side look at how different order flow auctions share information with searchers, how rebates flow back to users and which designs leave the most value on the table.',
    cover: '/covers/mesh.svg',
    minutes: 12,
    type: 'article',
    audience: 'mev-searchers',
    author: 'priya_onchain',
    link: {
      url: 'https://mirror.xyz/flowdesk.eth/order-flow-auctions-compared',
      domain: 'mirror.xyz',
    },
  },
  {
    key: 'mev-latency-budget',
    slug: 'where-your-searchers-latency-budget-goes',
    title: "Where your searcher's latency budget actually goes",
    date: '2026-09-18T07:30:00.000Z',
    teaser:
      'Most strategies lose opportunities not because the code is slow but because nobody measured where the milliseconds go. A five-stage breakdown, and the surprises that usually turn up.',
    cover: '/covers/grid.svg',
    minutes: 3,
    type: 'article',
    audience: 'mev-searchers',
    author: 'priya_onchain',
    content: `Searchers love to talk about raw speed, but most strategies lose opportunities not because the code is slow but because nobody measured where the milliseconds go. Before optimising anything, instrument the full path from the moment a relevant event exists to the moment your bundle reaches a builder.

## The five stages

1. **Observation.** How quickly do you see a new pending transaction or block? This depends on your node's peers, its location and whether you run your own infrastructure or rely on a provider.
2. **Decoding.** Turning raw data into something your strategy understands. Decoding every transaction is wasteful; filter early on the addresses and function selectors you care about.
3. **Simulation.** Usually the largest cost. Simulating against a local, warm state cache is orders of magnitude faster than calling a remote node.
4. **Construction and signing.** Building and signing the bundle should be close to negligible. If it is not, look for unnecessary allocations or repeated key loading.
5. **Submission.** Network distance to builders and relays. Submitting to several builders in parallel helps, but only if each connection is already open.

## Measure, then cut

Timestamp each stage with a monotonic clock and log percentiles, not averages. A median of four milliseconds is meaningless if your 99th percentile is eighty, because the opportunities that matter most tend to arrive in bursts, exactly when your system is under the most load.

## Common surprises

- Garbage collection pauses or lock contention that only appear under load.
- A single slow RPC call hidden inside a helper function.
- Building fresh state for each simulation instead of reusing a snapshot.
- Serialising bundles to JSON several times on the way out.

## Know when speed is not the answer

For many opportunities, the winner is decided by how much of the profit you are willing to pay the builder, not by who arrived first. If your latency is already competitive, improving your bidding model may be worth more than another millisecond.`,
  },
  {
    key: 'mev-builders-podcast',
    slug: 'inside-a-block-builder-bundles-and-merging',
    title: 'Inside a block builder: bundles, merging and the last 200 milliseconds',
    date: '2026-10-01T06:00:00.000Z',
    teaser:
      'An engineer from an independent builder explains how bundles are merged, why simulation throughput matters more than clever algorithms and what happens in the final moments before a block is sealed.',
    cover: '/covers/blocks.svg',
    minutes: 49,
    type: 'audio',
    audience: 'mev-searchers',
    author: 'priya_onchain',
    link: {
      url: 'https://mempoolradio.fm/episodes/inside-a-block-builder',
      domain: 'mempoolradio.fm',
    },
  },
  {
    key: 'mev-cross-domain',
    slug: 'cross-domain-mev-between-l1-and-rollups',
    title: 'Cross-domain MEV between L1 and rollups, mapped',
    date: '2026-10-16T08:00:00.000Z',
    teaser:
      'Arbitrage between L1 and rollup pools means holding inventory on both sides and accepting settlement risk. This essay maps the strategies in play and what they imply for sequencer design.',
    cover: '/covers/orbit.svg',
    minutes: 10,
    type: 'article',
    audience: 'mev-searchers',
    author: 'priya_onchain',
    link: {
      url: 'https://crossdomain.substack.com/p/cross-domain-mev-mapped',
      domain: 'crossdomain.substack.com',
      comments: 'https://research.rollupcollective.org/t/cross-domain-mev-notes/267',
    },
  },
  {
    key: 'mev-simulator-video',
    slug: 'building-a-bundle-simulator-on-a-forked-node',
    title: 'Building a bundle simulator on a forked node',
    date: '2026-10-28T13:00:00.000Z',
    teaser:
      'A hands-on session that wires a local fork to a strategy loop, caches state between simulations and shows how to benchmark simulation throughput before you worry about anything else.',
    cover: '/covers/prism.svg',
    minutes: 38,
    type: 'video',
    audience: 'mev-searchers',
    author: 'priya_onchain',
    link: {
      url: 'https://buildersbench.tv/talks/bundle-simulator-forked-node',
      domain: 'buildersbench.tv',
    },
  },
  {
    key: 'mev-backrun-only',
    slug: 'backrunning-without-sandwiching',
    title: 'Backrunning without sandwiching: building a searcher you can defend',
    date: '2026-11-12T07:30:00.000Z',
    teaser:
      'Sandwiches make users pay; backruns leave their trades untouched. Beyond the ethics, a backrun-only searcher gets access to better order flow and builds a business that lasts.',
    cover: '/covers/peaks.svg',
    minutes: 3,
    type: 'article',
    audience: 'mev-searchers',
    author: 'priya_onchain',
    content: `Not all MEV extraction is equal. A sandwich attack front-runs a user's swap, pushes the price against them and sells back into their trade. The user pays directly. A backrun, by contrast, trades after a transaction that has already moved a price, restoring it towards the wider market. The user's trade executes exactly as it would have without you.

## Why it is worth choosing

Beyond the ethical argument, there are practical reasons to focus on non-harmful strategies:

- **Order flow access.** Many order flow auctions and private transaction channels only share data with searchers who commit to backrun-only behaviour. Those channels are where a growing share of valuable flow lives.
- **Relationships with builders.** Builders increasingly filter bundles that harm the users whose transactions they include.
- **Longevity.** Strategies that depend on users failing to set slippage protection erode as wallets improve their defaults.

## Engineering the constraint

Building a backrun-only searcher is mostly about discipline in bundle construction:

1. **Never place your transaction before the target.** Your bundle should always include the user's transaction first and yours after it.
2. **Simulate the target alone and inside your bundle.** The user's outcome should be identical in both cases. Make this check a hard gate, not a log line.
3. **Share the profit when the channel asks for it.** Many order flow auctions return part of the backrun value to the user. Model the rebate as a cost and bid accordingly.

## The arbitrage you still get

Backrunning is competitive and still profitable for well-run operations. Price dislocations after large swaps, liquidations and oracle updates create steady opportunities. Winning them requires good pathfinding across pools, accurate gas estimation and sensible bidding, which are the same skills that make any searcher good.

If you are starting out, start here. You will learn the infrastructure without building a business that depends on users losing money they did not need to lose.`,
  },

  // --- Generative art collectors -------------------------------------------
  {
    key: 'genart-long-form',
    slug: 'why-long-form-generative-series-still-matter',
    title: 'Why long-form generative series still matter',
    date: '2026-09-08T10:00:00.000Z',
    teaser:
      "Long-form drops ask an artist to trust their algorithm across hundreds of unseen outputs. This essay argues the format remains the clearest test of a generative artist's craft, and explains what collectors should look for.",
    cover: '/covers/waves.svg',
    minutes: 8,
    type: 'article',
    audience: 'genart-collectors',
    author: 'soledad_xyz',
    link: {
      url: 'https://mirror.xyz/plottergarden.eth/why-long-form-still-matters',
      domain: 'mirror.xyz',
    },
  },
  {
    key: 'genart-provenance',
    slug: 'checking-provenance-before-you-collect',
    title: 'Checking provenance before you collect: a practical checklist',
    date: '2026-09-27T09:00:00.000Z',
    teaser:
      'Generative art is unusually easy to verify, and collectors rarely do. Six checks that take a few minutes and protect both your purchase and the integrity of the collection.',
    cover: '/covers/lattice.svg',
    minutes: 3,
    type: 'article',
    audience: 'genart-collectors',
    author: 'soledad_xyz',
    content: `Generative art is unusually well suited to verification. The algorithm, the seed and the output are all, in principle, inspectable. In practice, collectors rarely check, and that gap is where copies, misattributed mints and broken works slip through. A few minutes of diligence before you buy goes a long way.

## The checklist

- **Contract address.** Confirm it against the artist's own channels, not a link in a reply or a marketplace collection page alone. Look at the deployer address and whether it has deployed other works you know are genuine.
- **Where the code lives.** Is the generating script stored on-chain, pinned on a content-addressed network, or served from a web server that could disappear? Each has different long-term risks.
- **The token's seed.** On most long-form platforms the output is derived from a hash assigned at mint. Check that the image shown on the marketplace matches what the script produces from that hash.
- **Dependencies.** Many works rely on a specific version of a graphics library. Find out whether that version is referenced immutably or loaded from a third-party CDN.
- **Royalty and licence terms.** Read what rights you are actually acquiring. Some artists grant broad personal display rights; others reserve almost everything.
- **Transfer history.** Unusual patterns, such as a token bouncing between a small set of wallets at rising prices, deserve caution.

## When things don't match

If the rendered output differs from the marketplace thumbnail, it may be an innocent caching issue or a sign of something worse. Ask in the artist's or platform's community before buying. Good-faith projects tend to welcome these questions, because they help keep the collection's integrity intact.

## Why it matters beyond your purchase

Every careful collector makes the market a little more resistant to fraud and a little more respectful of artists' intentions. Provenance is not paperwork; in on-chain art, it is part of the work itself.`,
  },
  {
    key: 'genart-studio-visit-video',
    slug: 'studio-visit-writing-code-that-paints',
    title: 'Studio visit: writing code that paints',
    date: '2026-10-11T15:00:00.000Z',
    teaser:
      'A generative artist opens their studio, walks through the flow-field system behind their latest series and shows the hundreds of test renders that were discarded before the parameters felt right.',
    cover: '/covers/mesh.svg',
    minutes: 22,
    type: 'video',
    audience: 'genart-collectors',
    author: 'soledad_xyz',
    link: {
      url: 'https://openstudio.tv/visits/writing-code-that-paints',
      domain: 'openstudio.tv',
    },
  },
  {
    key: 'genart-curators-podcast',
    slug: 'curators-on-curating-generative-drops',
    title: 'Curators on curating: how generative drops get selected',
    date: '2026-10-24T06:00:00.000Z',
    teaser:
      'Three curators discuss how they review submissions, why they ask for hundreds of sample outputs and the difference between an interesting algorithm and a collection that holds together.',
    cover: '/covers/rings.svg',
    minutes: 46,
    type: 'audio',
    audience: 'genart-collectors',
    author: 'soledad_xyz',
    link: {
      url: 'https://longformradio.fm/episodes/curators-on-curating',
      domain: 'longformradio.fm',
    },
  },
  {
    key: 'genart-storage',
    slug: 'where-does-your-artwork-actually-live',
    title: 'Where does your artwork actually live? On-chain, IPFS and Arweave compared',
    date: '2026-11-07T09:00:00.000Z',
    teaser:
      'A token is a record on a chain; the artwork may live somewhere else entirely. How the main storage options compare on durability, and three things every collector should do about it.',
    cover: '/covers/blocks.svg',
    minutes: 3,
    type: 'article',
    audience: 'genart-collectors',
    author: 'soledad_xyz',
    content: `A token is a record on a blockchain. The artwork it represents may or may not be stored there. For collectors of generative work, understanding where the script, the metadata and the rendered output actually live is the difference between owning something durable and owning a pointer to a server.

## Fully on-chain

The script and, in some cases, its dependencies are stored in contract storage or calldata. As long as the chain exists and someone can read it, the work can be reconstructed. Costs are high at mint time, and very large dependencies can be impractical, but durability is as strong as it gets.

## Content-addressed storage (IPFS)

The token points to a content identifier, a hash of the file. Anyone holding the file can serve it, and the hash guarantees it has not been altered. The catch is availability: if nobody pins the file, it can disappear. Check whether the artist, the platform or a pinning service is committed to keeping it available, and consider pinning the works you care about yourself.

## Permanent storage networks (Arweave)

Files are paid for once, with an endowment designed to fund storage over the long term. The model trades recurring pinning costs for an upfront payment and depends on the network's economics holding up over decades.

## Plain web servers

Some tokens still point at an ordinary URL. If the domain lapses or the company shuts down, the metadata and image can vanish. This is the weakest option, and it deserves a discount in how you value the work.

## What to do as a collector

1. Read the token URI and follow every link until you reach the actual files.
2. Note which parts are mutable, including whether the contract owner can change the base URI.
3. Keep a local archive of the script, its dependencies and a high-resolution render.

Durability is part of a work's value. It is worth knowing what you are paying for.`,
  },

  // --- DAO governance ------------------------------------------------------
  {
    key: 'dao-delegate-pay',
    slug: 'paying-delegates-lessons-from-the-experiments',
    title: 'Paying delegates: what years of experiments have taught us',
    date: '2026-09-06T08:00:00.000Z',
    teaser:
      'Delegate compensation programmes have tried flat stipends, participation scores and retroactive rewards. A review of what improved engagement, what merely rewarded attendance and the designs worth copying.',
    cover: '/covers/grid.svg',
    minutes: 11,
    type: 'article',
    audience: 'dao-governance',
    author: 'aiko_gov',
    link: {
      url: 'https://governancequarterly.substack.com/p/paying-delegates-lessons',
      domain: 'governancequarterly.substack.com',
      comments: 'https://forum.governancequarterly.xyz/t/delegate-compensation-review/154',
    },
  },
  {
    key: 'dao-optimistic-governance',
    slug: 'optimistic-governance-let-the-team-act',
    title: 'Optimistic governance: let the team act, let token holders veto',
    date: '2026-09-22T07:30:00.000Z',
    teaser:
      'Voting on everything produces fatigue and rubber stamps. Optimistic governance lets a mandated team act while holders keep a veto, but only works if someone is actually watching the queue.',
    cover: '/covers/prism.svg',
    minutes: 3,
    type: 'article',
    audience: 'dao-governance',
    author: 'aiko_gov',
    content: `Most DAOs ask token holders to approve every meaningful action. The result is voter fatigue, low turnout and delegates rubber-stamping proposals they have not read. Optimistic governance flips the default: a mandated team or committee can act, and token holders have a window to veto anything they object to.

## How it works

A proposal is posted by an authorised party and enters a waiting period, typically a few days. If a veto threshold is not reached within that window, the action executes automatically through a timelock. If enough voting power objects, the action is cancelled and the question escalates to a full vote.

## Why it helps

- **Attention goes where it is needed.** Holders only mobilise when something is controversial, rather than voting on routine operations every week.
- **Execution is faster.** Teams can ship parameter changes and payments without a two-week governance cycle.
- **Accountability stays intact.** The mandate can be revoked, and every action remains visible and contestable.

## Where it goes wrong

Optimistic systems depend on someone watching. If nobody monitors the queue, a veto window is a formality. Successful implementations pair the mechanism with:

1. **A clear mandate** that spells out what the team may do without a vote and what always requires one, such as treasury transfers above a threshold or contract upgrades.
2. **Watchers with incentives.** Fund a small group of delegates or an independent reviewer to read every queued action and publish a short note on it.
3. **A low-friction veto path.** If objecting requires coordinating a huge share of supply, the veto is theoretical. Set the threshold at a level a concerned minority can realistically reach.

## Getting started

Pilot the model on a narrow scope, such as routine grant payments under a fixed size, and review it after a quarter. If the veto was never used, ask whether that is because every action was uncontroversial or because nobody was looking. The answer tells you whether to expand the mandate or strengthen oversight first.`,
  },
  {
    key: 'dao-treasury-podcast',
    slug: 'treasury-management-for-daos-without-the-hedge-fund',
    title: "Treasury management for DAOs that don't want to be hedge funds",
    date: '2026-10-09T06:00:00.000Z',
    teaser:
      'A treasury committee member and a risk adviser talk runway planning, diversifying out of the native token and how to write an investment policy a community can actually hold someone to.',
    cover: '/covers/rings.svg',
    minutes: 51,
    type: 'audio',
    audience: 'dao-governance',
    author: 'aiko_gov',
    link: {
      url: 'https://quorumcall.fm/episodes/treasury-management-without-the-hedge-fund',
      domain: 'quorumcall.fm',
    },
  },
  {
    key: 'dao-voting-power-video',
    slug: 'voting-power-visualised-how-concentrated-is-your-dao',
    title: 'Voting power, visualised: how concentrated is your DAO?',
    date: '2026-10-21T14:00:00.000Z',
    teaser:
      'A short data talk that builds Lorenz curves and Nakamoto coefficients for delegated voting power, and explains why the number of active delegates matters more than the number of holders.',
    cover: '/covers/peaks.svg',
    minutes: 18,
    type: 'video',
    audience: 'dao-governance',
    author: 'aiko_gov',
    link: {
      url: 'https://govtalks.tv/sessions/voting-power-visualised',
      domain: 'govtalks.tv',
    },
  },
  {
    key: 'dao-legal-wrappers',
    slug: 'legal-wrappers-for-daos-a-non-lawyers-map',
    title: "Legal wrappers for DAOs: a non-lawyer's map of the options",
    date: '2026-11-04T07:30:00.000Z',
    teaser:
      'Sooner or later a DAO needs to sign a contract or pay taxes. Foundations, DAO-specific LLCs, nonprofit associations and service companies compared, plus the questions to bring to counsel.',
    cover: '/covers/blocks.svg',
    minutes: 3,
    type: 'article',
    audience: 'dao-governance',
    author: 'aiko_gov',
    content: `Sooner or later a DAO needs to sign a contract, hire a service provider or pay taxes, and discovers that a smart contract cannot do any of those things on its own. A legal wrapper gives the organisation a recognised form in the off-chain world. This is a map of the common approaches, not legal advice; talk to counsel in the relevant jurisdictions before choosing.

## Why bother

Without any wrapper, some legal systems may treat an active DAO as a general partnership, which can expose participants to personal liability for the organisation's obligations. A wrapper can limit that exposure, make it possible to enter contracts and clarify who is responsible for tax filings.

## The main families

- **Foundations.** A common choice for protocol DAOs. A foundation has no shareholders and is run by directors who are bound by its purpose. The DAO typically instructs the foundation through governance, and the directors execute where lawful.
- **DAO-specific LLC statutes.** Some jurisdictions have introduced limited liability company forms that explicitly recognise on-chain governance and smart contracts as part of the operating agreement.
- **Unincorporated nonprofit associations.** Lighter-weight structures, available in some places, that can give members limited liability for certain purposes.
- **Service companies.** Rather than wrapping the whole DAO, some communities set up one or more operating companies that contract with the DAO to perform specific work.

## Questions to ask counsel

1. Who will be legally responsible for the entity's actions, and how are they protected?
2. How does on-chain governance translate into binding instructions?
3. What are the tax consequences for the treasury and for token holders?
4. What happens if governance votes for something the directors cannot lawfully do?

## The governance point

A wrapper is not just paperwork. It changes who holds power in practice. Make sure the structure you choose reflects how your community actually wants decisions made, and document the relationship between on-chain votes and off-chain execution publicly.`,
  },

  // --- Stablecoin payments -------------------------------------------------
  {
    key: 'stable-merchant-reconciliation',
    slug: 'stablecoin-merchant-payments-reconciliation',
    title: 'Settling merchant payments in stablecoins: the reconciliation problem',
    date: '2026-09-09T08:00:00.000Z',
    teaser:
      'Accepting stablecoins is easy; matching every on-chain transfer to an invoice is not. A look at payment references, per-invoice deposit addresses and the accounting exports finance teams actually need.',
    cover: '/covers/grid.svg',
    minutes: 9,
    type: 'article',
    audience: 'stablecoin-payments',
    author: 'mara_eth',
    link: {
      url: 'https://paymentsplumbing.substack.com/p/stablecoin-merchant-reconciliation',
      domain: 'paymentsplumbing.substack.com',
    },
  },
  {
    key: 'stable-gas-abstraction',
    slug: 'gas-abstraction-is-the-whole-payments-ux',
    title: 'Gas abstraction is the whole payments UX',
    date: '2026-09-25T07:30:00.000Z',
    teaser:
      'New users rarely get stuck on the address or the amount. They get stuck when the wallet asks for a token they do not own to pay a fee they did not expect. For payments, gas is the product.',
    cover: '/covers/waves.svg',
    minutes: 3,
    type: 'article',
    audience: 'stablecoin-payments',
    author: 'mara_eth',
    content: `Ask someone new to stablecoins to send ten dollars and watch where they get stuck. It is rarely the address or the amount. It is the moment the wallet tells them they need a different token, which they do not own, to pay a network fee they did not expect. For payments, gas is not a detail. It is the product.

## The options

- **Sponsored transactions.** The app or merchant pays gas on the user's behalf through a paymaster. Simple for users, but the sponsor needs spending limits and abuse protection.
- **Fees in the stablecoin.** The user pays the network fee in the same token they are sending, with a paymaster converting behind the scenes. Transparent, and easy to explain as a small service fee.
- **Gasless approvals.** Signed permits let a user authorise a transfer without a separate on-chain approval transaction, removing one of the most confusing steps.

## What merchants care about

Merchants want a predictable cost per transaction and a settlement amount that matches the invoice. Design so that fees are either absorbed by a known party or shown up front, and never deducted silently from the amount received. Reconciliation systems break when the amount on the invoice and the amount in the wallet differ by a few cents of gas.

## Guarding the paymaster

A sponsoring paymaster is an open tap unless you limit it. Practical safeguards include:

1. Per-user and per-day spending caps.
2. Allow-listing the contracts and functions you will sponsor.
3. Rate limits tied to an authenticated session rather than an address alone.
4. Monitoring for patterns such as many fresh accounts each making a single sponsored call.

## Where this is heading

Account abstraction standards and native paymaster support on many rollups make these patterns easier every quarter. The teams that win payments will be the ones whose users never learn what gas is. That is a high bar, but it is the right one.`,
  },
  {
    key: 'stable-remittances-podcast',
    slug: 'remittance-corridors-and-the-last-mile-cash-out',
    title: 'Remittance corridors and the last-mile cash-out',
    date: '2026-10-07T06:00:00.000Z',
    teaser:
      'Stablecoins cross borders in seconds, but recipients still need local currency. Operators from two remittance corridors explain agent networks, local liquidity and why the cash-out is where the real cost lives.',
    cover: '/covers/orbit.svg',
    minutes: 47,
    type: 'audio',
    audience: 'stablecoin-payments',
    author: 'mara_eth',
    link: {
      url: 'https://settlementlayer.fm/episodes/remittance-corridors-last-mile',
      domain: 'settlementlayer.fm',
    },
  },
  {
    key: 'stable-reserve-attestations',
    slug: 'reading-a-reserve-attestation-like-an-analyst',
    title: 'Reading a reserve attestation like an analyst',
    date: '2026-10-22T07:30:00.000Z',
    teaser:
      'The headline number in a reserve report is the least interesting part. What to look for in asset composition, custodians and maturities, and why a time series beats any single snapshot.',
    cover: '/covers/lattice.svg',
    minutes: 3,
    type: 'article',
    audience: 'stablecoin-payments',
    author: 'mara_eth',
    content: `Stablecoin issuers publish regular reports on the assets backing their tokens. They can be dense, and the headline number, usually a statement that reserves exceed the tokens in circulation, is the least interesting part. Here is how to read one with a critical eye.

## Attestation versus audit

An attestation is an accountant's report on specific assertions at a point in time, typically that the issuer held certain assets on a given date. It is narrower than a full financial statement audit, which examines controls and the broader financial position over a period. Both are useful; know which one you are reading.

## What to look for

- **The snapshot date.** A report as of the last day of the month says little about the other days. Look for any language about procedures covering the rest of the period.
- **Asset composition.** Cash at banks, short-dated government bills, repurchase agreements and money market funds carry different liquidity and credit profiles. Note the split.
- **Custodians and concentration.** How many banks hold the cash, and is a large share concentrated in one institution?
- **Maturity profile.** Short maturities make it easier to meet large redemptions without selling at a loss.
- **Tokens in circulation across chains.** Check how supply on each network is counted and whether tokens held by the issuer itself are excluded.
- **The accountant's opinion and any qualifications.** Qualified or modified opinions deserve a careful read.

## Build your own time series

A single report is a snapshot. The value comes from tracking composition month over month. A gradual shift toward longer maturities or less liquid instruments may tell you more about risk appetite than any press release.

## Combine with on-chain data

On-chain supply is public and updated every block. Comparing reported supply with what you can observe on each network is a cheap consistency check. Large unexplained differences are worth a question to the issuer.`,
  },
  {
    key: 'stable-checkout-video',
    slug: 'building-a-checkout-flow-with-stablecoin-payment-links',
    title: 'Building a checkout flow with stablecoin payment links',
    date: '2026-11-05T13:00:00.000Z',
    teaser:
      'A live build of a hosted checkout: generating payment links, watching for confirmations, handling underpayments and issuing refunds without asking the customer for their address twice.',
    cover: '/covers/blocks.svg',
    minutes: 31,
    type: 'video',
    audience: 'stablecoin-payments',
    author: 'mara_eth',
    link: {
      url: 'https://buildersbench.tv/talks/stablecoin-checkout-flow',
      domain: 'buildersbench.tv',
    },
  },

  // --- Crypto policy -------------------------------------------------------
  {
    key: 'policy-stablecoin-frameworks',
    slug: 'stablecoin-frameworks-across-jurisdictions',
    title: 'Stablecoin frameworks across jurisdictions: a comparison',
    date: '2026-09-10T08:00:00.000Z',
    teaser:
      'Reserve requirements, redemption rights, issuer licensing and the treatment of foreign issuers vary widely between regimes. This comparison lays them side by side and flags the questions still open in each.',
    cover: '/covers/grid.svg',
    minutes: 14,
    type: 'article',
    audience: 'crypto-policy',
    author: 'aiko_gov',
    link: {
      url: 'https://policyledger.substack.com/p/stablecoin-frameworks-compared',
      domain: 'policyledger.substack.com',
    },
  },
  {
    key: 'policy-travel-rule-podcast',
    slug: 'the-travel-rule-wallet-providers-and-self-custody',
    title: 'The travel rule, wallet providers and self-custody',
    date: '2026-09-30T06:00:00.000Z',
    teaser:
      'A compliance lead and a self-custody wallet designer discuss how information-sharing obligations reach transfers to unhosted wallets, and where the practical burden falls on service providers.',
    cover: '/covers/rings.svg',
    minutes: 42,
    type: 'audio',
    audience: 'crypto-policy',
    author: 'aiko_gov',
    link: {
      url: 'https://thecommentperiod.fm/episodes/travel-rule-and-self-custody',
      domain: 'thecommentperiod.fm',
    },
  },
  {
    key: 'policy-defi-frontends',
    slug: 'who-is-responsible-for-a-defi-front-end',
    title: 'Who is responsible for a DeFi front-end?',
    date: '2026-10-13T07:30:00.000Z',
    teaser:
      'Immutable contracts offer regulators no obvious counterpart; the websites in front of them do. The arguments on each side, and the design choices that change how an interface is characterised.',
    cover: '/covers/mesh.svg',
    minutes: 3,
    type: 'article',
    audience: 'crypto-policy',
    author: 'aiko_gov',
    content: `Smart contracts on a public chain can be called by anyone. The websites most people use to interact with them are a different matter: they are operated by someone, hosted somewhere and usually reachable through a domain name. That difference is at the centre of a growing number of policy discussions about decentralised finance.

## Why front-ends attract attention

Regulators tend to look for a responsible party: someone who can register, keep records or block prohibited activity. Immutable contracts offer no obvious candidate. A front-end operator does. It chooses which tokens to list, which warnings to show and which addresses or regions to block, and it often earns fees. Those choices look, from a policy perspective, like the kind of control that comes with obligations.

## The arguments on each side

Those who favour treating front-ends as intermediaries point out that for most users the website is the product, and that consumer protection should follow where users actually interact. Those who resist argue that a front-end is closer to a publishing tool or a browser: it displays public information and helps users construct transactions they sign themselves, without ever holding their funds.

## Design choices that change the analysis

Teams building interfaces can influence how their role is characterised:

- **Custody.** Never touching user funds is the clearest line.
- **Open source and multiple hosts.** If anyone can run the same interface, the operator looks less like a gatekeeper.
- **Fees.** An interface fee is a business model, and business models tend to attract obligations.
- **Curation.** Default token lists and routing decisions are editorial choices that may be scrutinised.

## What to watch

Expect more consultations and guidance documents that distinguish between protocols, interfaces and the developers who write code. If you operate a front-end, follow those consultations closely and consider responding. Comment periods are one of the few points where builders can shape the rules before they are written.`,
  },
  {
    key: 'policy-broker-reporting-video',
    slug: 'broker-reporting-rules-explained-in-twenty-minutes',
    title: 'Broker reporting rules, explained in twenty minutes',
    date: '2026-10-26T15:00:00.000Z',
    teaser:
      'An explainer on how digital asset broker reporting regimes define a broker, which transactions are covered and what exchanges and wallet providers are preparing for, with a plain-language glossary at the end.',
    cover: '/covers/peaks.svg',
    minutes: 21,
    type: 'video',
    audience: 'crypto-policy',
    author: 'aiko_gov',
    link: {
      url: 'https://policyexplained.tv/videos/broker-reporting-in-twenty-minutes',
      domain: 'policyexplained.tv',
    },
  },
  {
    key: 'policy-comment-letters',
    slug: 'how-to-write-a-comment-letter-regulators-will-read',
    title: 'How to write a comment letter regulators will actually read',
    date: '2026-11-11T08:00:00.000Z',
    teaser:
      'Comment periods are where builders can shape rules before they are final. Practical advice on answering the questions actually asked, providing data and keeping the letter short enough to be read in full.',
    cover: '/covers/prism.svg',
    minutes: 7,
    type: 'article',
    audience: 'crypto-policy',
    author: 'aiko_gov',
    link: {
      url: 'https://policyledger.substack.com/p/writing-comment-letters-that-get-read',
      domain: 'policyledger.substack.com',
    },
  },

  // --- Solana developers ---------------------------------------------------
  {
    key: 'sol-compute-units',
    slug: 'squeezing-compute-units-profiling-a-solana-program',
    title: 'Squeezing compute units: profiling a Solana program',
    date: '2026-09-11T07:30:00.000Z',
    teaser:
      'Compute usage decides whether your transactions fit and how much priority fees cost. How to measure it, the usual culprits and a test that stops regressions before users notice.',
    cover: '/covers/blocks.svg',
    minutes: 3,
    type: 'article',
    audience: 'solana-devs',
    author: 'tomas_audits',
    content: `Every Solana transaction runs under a compute budget. Exceed it and the transaction fails; request far more than you need and you pay more in priority fees, since those are priced per compute unit requested. Profiling your program's compute usage is one of the highest-leverage optimisations you can make.

## Measure first

Start by logging remaining compute units at the beginning and end of each instruction handler, and at a few points inside expensive paths. Run the same transaction several times in a local validator or test harness with realistic accounts, and record the numbers. You are looking for the handful of operations that dominate the total.

## Common culprits

- **Logging.** String formatting in log messages is surprisingly expensive. Strip verbose logs from production builds or gate them behind a feature flag.
- **Deserialising whole accounts.** If you only need two fields from a large account, zero-copy access avoids decoding the rest.
- **Program-derived address searches.** Finding a PDA from scratch iterates over bump seeds. Store the canonical bump when the account is created and pass it in, rather than recomputing it.
- **Cross-program invocations.** Each invocation has overhead. Batch work where possible and avoid calling the same program repeatedly in a loop.
- **Duplicate checks.** Validation is important, but checks that the runtime or framework already performs add cost without adding safety.

## Set the budget explicitly

Once you know the real usage, request a compute unit limit close to it, with a modest margin, using the compute budget instructions. This lets your priority fee work harder, because you are bidding on a smaller number of units.

## Keep it from regressing

Add compute usage to your test assertions. A test that fails when an instruction exceeds its expected budget catches regressions in code review rather than in production, when users start seeing failed transactions during busy periods.`,
  },
  {
    key: 'sol-token-extensions',
    slug: 'token-extensions-in-production',
    title: 'Token extensions in production: transfer hooks and confidential transfers',
    date: '2026-09-23T08:00:00.000Z',
    teaser:
      'What teams learned shipping tokens with transfer hooks, interest-bearing configs and confidential transfers: wallet support gaps, composability surprises and the account-size costs nobody budgets for.',
    cover: '/covers/lattice.svg',
    minutes: 10,
    type: 'article',
    audience: 'solana-devs',
    author: 'tomas_audits',
    link: {
      url: 'https://runtimenotes.substack.com/p/token-extensions-in-production',
      domain: 'runtimenotes.substack.com',
    },
  },
  {
    key: 'sol-client-diversity-podcast',
    slug: 'client-diversity-on-solana-validator-client-teams',
    title: 'Client diversity on Solana: conversations with validator client teams',
    date: '2026-10-05T06:00:00.000Z',
    teaser:
      'Engineers from independent validator client efforts discuss why multiple implementations matter, how they test for consensus divergence and what operators should weigh before switching clients.',
    cover: '/covers/rings.svg',
    minutes: 55,
    type: 'audio',
    audience: 'solana-devs',
    author: 'tomas_audits',
    link: {
      url: 'https://slotbyslot.fm/episodes/client-diversity',
      domain: 'slotbyslot.fm',
    },
  },
  {
    key: 'sol-fast-tests-video',
    slug: 'fast-anchor-tests-with-an-in-process-bank',
    title: 'Fast Anchor tests with an in-process bank',
    date: '2026-10-18T13:00:00.000Z',
    teaser:
      'Swap a slow local validator for an in-process test bank and cut a test suite from minutes to seconds. This walkthrough covers time travel, account fixtures and testing CPI-heavy programs.',
    cover: '/covers/grid.svg',
    minutes: 26,
    type: 'video',
    audience: 'solana-devs',
    author: 'tomas_audits',
    link: {
      url: 'https://buildersbench.tv/talks/fast-anchor-tests',
      domain: 'buildersbench.tv',
    },
  },
  {
    key: 'sol-priority-fees',
    slug: 'priority-fees-without-overpaying',
    title: 'Priority fees without overpaying: a practical strategy',
    date: '2026-11-02T07:30:00.000Z',
    teaser:
      'A large fixed priority fee works, and quietly overcharges users most of the time. Estimate from the accounts you actually touch, cap the bid and escalate only when a transaction has not landed.',
    cover: '/covers/peaks.svg',
    minutes: 3,
    type: 'article',
    audience: 'solana-devs',
    author: 'tomas_audits',
    content: `When Solana is busy, transactions with higher priority fees are more likely to land. Many applications respond by setting a large fixed fee and forgetting about it. That works, but it quietly overcharges users most of the time. A little logic goes a long way.

## How the fee is calculated

The priority fee is a price per compute unit multiplied by the compute unit limit you request. That gives you two levers: the price you bid and the number of units you ask for. Reducing the requested limit to match your real usage lowers the total fee at any given price.

## Estimate from recent data

Recent prioritisation fees are available through RPC methods and provider APIs, and they can be filtered by the accounts your transaction writes to. That matters, because congestion is local: a popular token's market may be contested while the rest of the chain is quiet. Use a percentile of recent fees for the specific accounts you touch rather than a global average.

## A simple strategy

1. **Simulate** the transaction to get actual compute usage, and set the limit with a small margin.
2. **Fetch recent fees** for the writable accounts involved.
3. **Pick a percentile** based on urgency: a lower one for routine actions, a higher one for time-sensitive trades.
4. **Cap the fee** at a maximum the user has agreed to, and show it to them.
5. **Retry with escalation** if the transaction has not landed after a short interval, raising the percentile step by step.

## Land more, not just pay more

Fees are only part of landing rates. Sending through well-connected RPC endpoints, refreshing the recent blockhash before retries and avoiding write locks on hot accounts where possible often improve reliability more than a bigger bid.

## Tell users what is happening

Surface the fee and the urgency choice in the interface. Users accept paying more when they understand why, and they notice when an app overcharges them for a routine action.`,
  },

  // --- ZK researchers ------------------------------------------------------
  {
    key: 'zk-folding-survey',
    slug: 'folding-schemes-a-gentle-survey',
    title: 'Folding schemes, a gentle survey',
    date: '2026-09-14T08:00:00.000Z',
    teaser:
      'Folding lets a prover combine many instances of a computation into one before proving it. A readable survey of the main schemes, what they assume and where they fit in incrementally verifiable computation.',
    cover: '/covers/orbit.svg',
    minutes: 18,
    type: 'article',
    audience: 'zk-researchers',
    author: 'devin_zk',
    link: {
      url: 'https://hackmd.io/@proofnotes/folding-schemes-gentle-survey',
      domain: 'hackmd.io',
      comments: 'https://research.rollupcollective.org/t/folding-schemes-survey-discussion/245',
    },
  },
  {
    key: 'zk-zkvm-podcast',
    slug: 'zkvms-and-the-real-cost-of-general-purpose-proving',
    title: 'zkVMs and the real cost of general-purpose proving',
    date: '2026-09-29T06:00:00.000Z',
    teaser:
      'A proving-systems engineer explains the overhead of proving arbitrary programs, where recursion and precompiles claw back performance and when a custom circuit is still the better choice.',
    cover: '/covers/rings.svg',
    minutes: 58,
    type: 'audio',
    audience: 'zk-researchers',
    author: 'devin_zk',
    link: {
      url: 'https://witnessgen.fm/episodes/zkvms-and-general-purpose-proving',
      domain: 'witnessgen.fm',
    },
  },
  {
    key: 'zk-lookup-arguments',
    slug: 'lookup-arguments-explained-with-one-table',
    title: 'Lookup arguments, explained with one table',
    date: '2026-10-12T07:30:00.000Z',
    teaser:
      'Some operations are painful to express as arithmetic constraints. Lookup arguments let a prover show a value sits in a precomputed table instead, and they now underpin range checks, hashes and zkVMs.',
    cover: '/covers/grid.svg',
    minutes: 3,
    type: 'article',
    audience: 'zk-researchers',
    author: 'devin_zk',
    content: `Some operations are awkward to express as arithmetic constraints. A range check, a bitwise operation or a byte decomposition can cost dozens of constraints when written out as field arithmetic. Lookup arguments offer a shortcut: instead of proving a computation step by step, you prove that a value appears in a precomputed table.

## The core idea

Imagine a table listing every valid row for an 8-bit XOR: all inputs a and b, with the result a XOR b. To prove that some witness values satisfy the XOR relation, you do not need to decompose them into bits. You only need to show that each triple in your witness appears somewhere in the table. A lookup argument is a protocol that proves this membership efficiently, for many lookups at once.

## Where the efficiency comes from

Early lookup arguments sorted the witness and table values together and proved that the sorted sequence was consistent with both. Later designs use logarithmic derivatives, turning the membership claim into an equality between sums of fractions that can be checked with a single random challenge. The practical effect is that the prover's cost grows with the number of lookups and the size of the table, rather than with the complexity of the operation being looked up.

## Where they shine

- **Range checks**, which appear constantly in circuits that handle integers.
- **Bitwise operations** in hash functions designed for ordinary CPUs.
- **Instruction execution in zkVMs**, where whole instruction semantics can be encoded as lookups into structured tables.

## Trade-offs to keep in mind

Tables are not free. Large tables increase commitment costs, and very large ones require decomposition tricks so the prover never materialises the full table. Choosing table sizes is therefore an engineering decision that balances constraint counts against commitment work.

If you want to go further, the [ZKProof community](https://zkproof.org) is a good place to find survey material and standards discussions to read alongside any particular system's documentation.`,
  },
  {
    key: 'zk-gpu-proving-video',
    slug: 'gpu-proving-where-the-speedups-come-from',
    title: 'GPU proving: where the speedups actually come from',
    date: '2026-10-25T14:00:00.000Z',
    teaser:
      'A conference talk breaking down multi-scalar multiplication and number-theoretic transforms on GPUs, memory bandwidth limits and why end-to-end prover gains are smaller than kernel benchmarks suggest.',
    cover: '/covers/prism.svg',
    minutes: 33,
    type: 'video',
    audience: 'zk-researchers',
    author: 'devin_zk',
    link: {
      url: 'https://proofsandpatterns.tv/talks/gpu-proving-speedups',
      domain: 'proofsandpatterns.tv',
    },
  },
  {
    key: 'zk-soundness-bugs',
    slug: 'a-taxonomy-of-soundness-bugs-in-zk-circuits',
    title: 'A taxonomy of soundness bugs in zero-knowledge circuits',
    date: '2026-11-08T08:00:00.000Z',
    teaser:
      'Under-constrained signals, unchecked field overflows and missing range checks account for many circuit vulnerabilities. This taxonomy groups the common bug classes and pairs each with a detection technique.',
    cover: '/covers/mesh.svg',
    minutes: 15,
    type: 'article',
    audience: 'zk-researchers',
    author: 'devin_zk',
    link: {
      url: 'https://hackmd.io/@circuitreview/soundness-bug-taxonomy',
      domain: 'hackmd.io',
    },
  },

  // --- On-chain data analysts ----------------------------------------------
  {
    key: 'data-address-labelling',
    slug: 'address-labelling-at-scale-heuristics',
    title: 'Address labelling at scale: heuristics and their failure modes',
    date: '2026-09-16T08:00:00.000Z',
    teaser:
      'Clustering heuristics turn raw addresses into entities, but each one breaks in predictable ways. A tour of common-funder, deposit-address and behavioural heuristics, with notes on measuring their error rates.',
    cover: '/covers/mesh.svg',
    minutes: 12,
    type: 'article',
    audience: 'onchain-analysts',
    author: 'priya_onchain',
    link: {
      url: 'https://queryplan.substack.com/p/address-labelling-at-scale',
      domain: 'queryplan.substack.com',
    },
  },
  {
    key: 'data-dex-volume',
    slug: 'why-your-dex-volume-chart-is-double-counting',
    title: 'Why your DEX volume chart is probably double-counting',
    date: '2026-09-28T07:30:00.000Z',
    teaser:
      'One user trade can emit several swap events, and naive sums count them all. Decide whether you are measuring pool activity or user trading, then collapse, flag and document accordingly.',
    cover: '/covers/peaks.svg',
    minutes: 3,
    type: 'article',
    audience: 'onchain-analysts',
    author: 'priya_onchain',
    content: `Decentralised exchange volume looks like one of the easiest metrics in crypto analytics. Sum the swap events, convert to dollars, chart by day. The trouble is that a single user trade can emit several swap events, and naive aggregation counts all of them.

## Where the double-counting comes from

- **Multi-hop routes.** A trade from token A to token C routed through B emits two swaps: A to B and B to C. Summing both counts the trade twice.
- **Aggregator splits.** Aggregators split orders across several pools and venues. Each leg is a real swap, but the user made one trade.
- **Arbitrage and backruns.** Bots cycle through pools to capture price differences. Those swaps are real volume in a market-structure sense, but they say little about user demand.
- **Wash trading.** Some volume is generated specifically to inflate metrics, especially around incentive programmes.

## Define the question first

There is no single correct volume number. Decide whether you are measuring pool-level activity, which is relevant for LP fee revenue, or user-level trading, which is relevant for adoption. Pool-level volume should include every leg. User-level volume should collapse each transaction into one trade, valued on the input or the output side, not both.

## A practical approach

1. Group swap events by transaction hash.
2. Identify the originating address and, where possible, the router or aggregator contract involved.
3. For user-level volume, take the first input amount or the final output amount per transaction.
4. Flag transactions from known bot contracts and report them separately rather than dropping them silently.

## Document your method

Whatever you choose, write it down next to the chart. Two dashboards showing different volume numbers for the same protocol are usually both correct about different things. The one without an explanation is the one that misleads.`,
  },
  {
    key: 'data-dashboards-podcast',
    slug: 'dashboards-nobody-reads',
    title: 'Dashboards nobody reads: analysts on what actually gets used',
    date: '2026-10-15T06:00:00.000Z',
    teaser:
      'Three on-chain analysts compare notes on the dashboards that changed decisions and the ones abandoned within a week, and share how they now scope work with protocol teams.',
    cover: '/covers/rings.svg',
    minutes: 39,
    type: 'audio',
    audience: 'onchain-analysts',
    author: 'priya_onchain',
    link: {
      url: 'https://rowsandblocks.fm/episodes/dashboards-nobody-reads',
      domain: 'rowsandblocks.fm',
    },
  },
  {
    key: 'data-decoding-logs-video',
    slug: 'decoding-event-logs-from-scratch',
    title: 'Decoding event logs from scratch',
    date: '2026-10-31T14:00:00.000Z',
    teaser:
      'A whiteboard-style explainer on topics, data fields and ABI encoding, ending with a small decoder that handles indexed dynamic types and anonymous events correctly.',
    cover: '/covers/lattice.svg',
    minutes: 24,
    type: 'video',
    audience: 'onchain-analysts',
    author: 'priya_onchain',
    link: {
      url: 'https://openblockclass.tv/lessons/decoding-event-logs',
      domain: 'openblockclass.tv',
    },
  },
  {
    key: 'data-retention-cohorts',
    slug: 'wallet-cohort-retention-query-pattern',
    title: 'Wallet cohort retention: a query pattern that holds up',
    date: '2026-11-15T07:30:00.000Z',
    teaser:
      'Retention separates real adoption from incentive spikes. A four-step cohort query, the pitfalls of sybils, smart accounts and bridged users, and why the shape of the curve matters more than any one number.',
    cover: '/covers/grid.svg',
    minutes: 3,
    type: 'article',
    audience: 'onchain-analysts',
    author: 'priya_onchain',
    content: `Retention is the metric that separates real adoption from incentive-driven spikes. On-chain, the unit is usually a wallet address, which is imperfect, but a careful cohort query can still tell you a great deal about whether people come back.

## Define the cohort

A cohort is the set of addresses whose first qualifying action happened in a given week. "Qualifying" is the important word. A first interaction that is just a token approval or a dust transfer should not start the clock. Pick an action that reflects real use, such as a swap above a minimum size or a deposit into a vault.

## The query pattern

1. **Build a first-seen table.** For each address, the timestamp of its first qualifying action, truncated to the week.
2. **Build an activity table.** For each address and week, whether it performed any qualifying action.
3. **Join and offset.** For each cohort week and each subsequent week number, count the addresses from the cohort that were active.
4. **Normalise.** Divide by the cohort size to get a retention percentage.

Materialise the first two tables incrementally rather than recomputing them from genesis on every run. Most analytics platforms support this, and it turns a slow query into a fast one.

## Pitfalls

- **Sybil clusters.** Airdrop farmers create many addresses that behave identically. Consider filtering addresses funded from the same source within a short window, and report filtered and unfiltered numbers side by side.
- **Smart accounts and contract wallets.** These can change the relationship between an address and a person. Decide whether to treat them differently.
- **Bridged users.** A user who moves to another chain looks churned on this one. If the protocol is multi-chain, consider cross-chain identity heuristics carefully and be explicit about their limits.

## Read the curve, not the number

The shape matters more than any single value. A curve that flattens after a few weeks means a core of users has found lasting value. One that decays steadily toward zero usually means the incentives were doing the work.`,
  },

  // --- Wallet UX designers -------------------------------------------------
  {
    key: 'wallet-passkeys',
    slug: 'passkeys-and-smart-accounts-onboarding',
    title: 'Passkeys and smart accounts: onboarding without seed phrases',
    date: '2026-09-13T09:00:00.000Z',
    teaser:
      'Passkey-based signers let users create a smart account with a fingerprint. This case study covers device loss, cross-platform sync, recovery options and how the onboarding funnel changed after the switch.',
    cover: '/covers/orbit.svg',
    minutes: 9,
    type: 'article',
    audience: 'wallet-ux',
    author: 'soledad_xyz',
    link: {
      url: 'https://interfaceledger.substack.com/p/passkeys-and-smart-accounts',
      domain: 'interfaceledger.substack.com',
    },
  },
  {
    key: 'wallet-signing-screens',
    slug: 'signing-screens-people-can-actually-read',
    title: 'Signing screens people can actually read',
    date: '2026-10-03T07:30:00.000Z',
    teaser:
      'The signing screen is the most consequential moment in a wallet, and usually a wall of hex. Lead with outcomes, make approvals unmissable, structure typed data and save warnings for real risk.',
    cover: '/covers/prism.svg',
    minutes: 3,
    type: 'article',
    audience: 'wallet-ux',
    author: 'soledad_xyz',
    content: `The signing screen is the most consequential moment in any wallet. It is where a user grants permission to move funds, and it is also where most interfaces show a wall of hexadecimal, a contract address and a button labelled "Confirm". We can do much better.

## Lead with the outcome

Users want to know what will happen, not how. "You will send 250 USDC and receive at least 0.081 ETH" is more useful than a function name and encoded parameters. Transaction simulation makes this possible for most calls: run the transaction against current state and show the resulting balance changes.

## Make approvals impossible to miss

Token approvals are one of the most common routes to losing funds, because they grant future permission rather than moving assets immediately. Treat them differently:

- State plainly who is being given permission and how much they can take.
- Flag unlimited approvals and offer a sensible limited amount by default.
- Show whether the spender is a known protocol, a freshly deployed contract or an ordinary account.

## Structure typed messages

Off-chain signatures, such as permits and order messages, can be as powerful as transactions. Render typed data as labelled fields with human-readable values, and highlight the fields that affect funds: amounts, deadlines and recipients.

## Use warnings sparingly

If every screen carries a warning, users learn to ignore them. Reserve strong warnings for high-risk patterns: interacting with a recently deployed contract, approving an address with no history, or signing a message that would transfer assets. Make those warnings specific. "This contract was deployed two hours ago" beats "Be careful".

## Test with real people

Run short sessions where participants explain, in their own words, what they think a transaction will do before they sign it. The gap between their answer and reality is your design backlog. It is humbling, and it is the fastest route to a signing screen that protects people.`,
  },
  {
    key: 'wallet-recovery-podcast',
    slug: 'social-recovery-from-the-people-who-ship-it',
    title: 'Social recovery, from the people who ship it',
    date: '2026-10-20T06:00:00.000Z',
    teaser:
      "Designers from two smart wallet teams discuss choosing guardians, time delays, recovery that doesn't feel like a security exam and why most users never set it up until it's too late.",
    cover: '/covers/waves.svg',
    minutes: 43,
    type: 'audio',
    audience: 'wallet-ux',
    author: 'soledad_xyz',
    link: {
      url: 'https://signhere.fm/episodes/social-recovery-in-practice',
      domain: 'signhere.fm',
    },
  },
  {
    key: 'wallet-chain-abstraction-video',
    slug: 'chain-abstraction-in-the-interface-design-critique',
    title: 'Chain abstraction in the interface: a design critique',
    date: '2026-11-03T15:00:00.000Z',
    teaser:
      'A design critique of four multi-chain wallets, looking at how they present balances spread across networks, when they hide bridging and where hiding too much leaves users confused about fees.',
    cover: '/covers/mesh.svg',
    minutes: 27,
    type: 'video',
    audience: 'wallet-ux',
    author: 'soledad_xyz',
    link: {
      url: 'https://interfacecrit.tv/critiques/chain-abstraction',
      domain: 'interfacecrit.tv',
    },
  },
  {
    key: 'wallet-error-messages',
    slug: 'writing-error-messages-for-failed-transactions',
    title: 'Writing error messages for failed transactions',
    date: '2026-11-17T09:00:00.000Z',
    teaser:
      'Reverted, out of gas, nonce too low: a guide to translating failed transactions into messages that tell users what happened, whether they lost anything and what to do next.',
    cover: '/covers/peaks.svg',
    minutes: 6,
    type: 'article',
    audience: 'wallet-ux',
    author: 'soledad_xyz',
    link: {
      url: 'https://interfaceledger.substack.com/p/error-messages-for-failed-transactions',
      domain: 'interfaceledger.substack.com',
    },
  },
];

// ---------------------------------------------------------------------------
// Content cards
// ---------------------------------------------------------------------------

export const contentCards: SeedContentCard[] = [
  // DeFi builders (8)
  {
    date: '2026-09-16T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-oracle-latency',
    secondary: ['defi-intent-solvers'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Two reminders that execution quality depends on timing: stale prices hurt lenders, and solver auctions decide who captures surplus.',
  },
  {
    date: '2026-09-25T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-isolated-markets',
    secondary: ['defi-oracle-latency', 'defi-intent-solvers'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Catch up on the week',
    verbalDescriptor:
      'Risk is moving from governance forums to curators, and builders need to understand who now sets the parameters.',
  },
  {
    date: '2026-10-07T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-liquidations-podcast',
    secondary: ['defi-isolated-markets'],
    primaryStoriesHeader: 'Listen on your commute',
    secondaryStoriesHeader: 'Pairs well with',
    verbalDescriptor:
      'Liquidations are where a lending design meets reality; hear from the operators who run them when markets move fast.',
  },
  {
    date: '2026-10-18T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-hooks-video',
    secondary: ['defi-liquidations-podcast', 'defi-oracle-latency'],
    primaryStoriesHeader: 'Watch this one',
    secondaryStoriesHeader: 'If you have time for more',
    verbalDescriptor:
      'Hooks make AMMs programmable; this live build shows the permission details that decide whether your first one ships safely.',
  },
  {
    date: '2026-10-30T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-fee-switch',
    secondary: ['defi-hooks-video', 'defi-isolated-markets'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also on the radar',
    verbalDescriptor:
      'Protocol revenue is back on the agenda, and the fee switches that last are the ones designed before the governance vote.',
  },
  {
    date: '2026-11-10T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-points-programs',
    secondary: ['defi-fee-switch', 'defi-intent-solvers'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Keep reading',
    verbalDescriptor:
      'Growth incentives and revenue design are two sides of one question: which users and liquidity will still be here next year?',
  },
  {
    date: '2026-11-19T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-invariant-testing',
    secondary: ['defi-points-programs', 'defi-hooks-video'],
    primaryStoriesHeader: 'Start here',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Five properties to fuzz before your next audit, because cheap invariant tests catch the bugs that unit tests never reach.',
  },
  {
    date: '2026-11-20T06:00:00.000Z',
    audience: 'defi-builders',
    primary: 'defi-points-programs',
    secondary: ['defi-invariant-testing', 'defi-liquidations-podcast', 'defi-fee-switch'],
    primaryStoriesHeader: 'The week in DeFi',
    secondaryStoriesHeader: 'Most saved by builders',
    verbalDescriptor:
      "A round-up of this week's most-read pieces on incentives, testing and revenue for teams shipping lending and trading protocols.",
  },

  // Security auditors (7)
  {
    date: '2026-09-13T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-audit-scope',
    secondary: ['sec-readonly-reentrancy'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'A better scoping document and a bug class that keeps resurfacing: two ways to spend review time on what matters.',
  },
  {
    date: '2026-09-27T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-incident-response-podcast',
    secondary: ['sec-audit-scope'],
    primaryStoriesHeader: 'Listen on your commute',
    secondaryStoriesHeader: 'Pairs well with',
    verbalDescriptor:
      'The first hour of an exploit decides how much is lost; responders explain what a workable war room looks like.',
  },
  {
    date: '2026-10-09T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-formal-verification-video',
    secondary: ['sec-readonly-reentrancy', 'sec-incident-response-podcast'],
    primaryStoriesHeader: 'Watch this one',
    secondaryStoriesHeader: 'Catch up on the week',
    verbalDescriptor:
      'Formal methods are becoming a normal part of review; this talk shows how to write specs without a research background.',
  },
  {
    date: '2026-10-20T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-proxy-storage',
    secondary: ['sec-formal-verification-video'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Keep reading',
    verbalDescriptor:
      'Upgradeable proxies keep producing critical findings, and layout checks belong in every review of an upgrade.',
  },
  {
    date: '2026-10-31T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-contest-vs-firm',
    secondary: ['sec-proxy-storage', 'sec-audit-scope'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also on the radar',
    verbalDescriptor:
      'Clients keep asking whether to hire a firm or run a contest; here is a sequencing answer you can share with them.',
  },
  {
    date: '2026-11-11T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-signature-replay',
    secondary: ['sec-contest-vs-firm', 'sec-readonly-reentrancy'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'If you have time for more',
    verbalDescriptor:
      'Multi-chain deployments multiply signature replay risk; these test cases belong in every permit review checklist.',
  },
  {
    date: '2026-11-20T06:00:00.000Z',
    audience: 'security-auditors',
    primary: 'sec-postmortem-template',
    secondary: ['sec-incident-response-podcast', 'sec-signature-replay', 'sec-proxy-storage'],
    primaryStoriesHeader: 'Start here',
    secondaryStoriesHeader: 'Most saved by auditors',
    verbalDescriptor:
      'Good post-mortems make the whole ecosystem safer; agree the template now, before the worst week of the year.',
  },

  // Rollup engineers (3)
  {
    date: '2026-09-20T06:00:00.000Z',
    audience: 'rollup-engineers',
    primary: 'rollup-based-sequencing',
    secondary: ['rollup-blob-fees'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Who orders transactions and what data availability costs are the two decisions shaping every rollup roadmap right now.',
  },
  {
    date: '2026-10-15T06:00:00.000Z',
    audience: 'rollup-engineers',
    primary: 'rollup-shared-sequencers-podcast',
    secondary: ['rollup-fault-proofs-video', 'rollup-based-sequencing'],
    primaryStoriesHeader: 'Listen on your commute',
    secondaryStoriesHeader: 'Keep learning',
    verbalDescriptor:
      'Interoperability and proof systems are where rollups earn trust; a debate and an explainer to sharpen your view.',
  },
  {
    date: '2026-11-14T06:00:00.000Z',
    audience: 'rollup-engineers',
    primary: 'rollup-node-pruning',
    secondary: ['rollup-forced-inclusion'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Also on the radar',
    verbalDescriptor:
      'Cheap nodes and working escape hatches are what let users verify and exit your rollup without asking anyone.',
  },

  // MEV searchers (3)
  {
    date: '2026-09-19T06:00:00.000Z',
    audience: 'mev-searchers',
    primary: 'mev-latency-budget',
    secondary: ['mev-ofa-compared'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Before chasing milliseconds, measure them; then decide which order flow auctions are worth connecting to at all.',
  },
  {
    date: '2026-10-17T06:00:00.000Z',
    audience: 'mev-searchers',
    primary: 'mev-cross-domain',
    secondary: ['mev-builders-podcast'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Listen later',
    verbalDescriptor:
      'Opportunities increasingly span L1 and rollups, and the builders in the middle decide how bundles get merged.',
  },
  {
    date: '2026-11-13T06:00:00.000Z',
    audience: 'mev-searchers',
    primary: 'mev-backrun-only',
    secondary: ['mev-simulator-video', 'mev-latency-budget'],
    primaryStoriesHeader: 'Start here',
    secondaryStoriesHeader: 'Build along',
    verbalDescriptor:
      'A searcher strategy you can defend, plus the simulation tooling that makes backrun-only bundles safe to ship.',
  },

  // Generative art collectors (2)
  {
    date: '2026-09-28T06:00:00.000Z',
    audience: 'genart-collectors',
    primary: 'genart-provenance',
    secondary: ['genart-long-form'],
    primaryStoriesHeader: 'This week for collectors',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Verify before you collect, and know why long-form series reward the collectors who do their homework.',
  },
  {
    date: '2026-11-08T06:00:00.000Z',
    audience: 'genart-collectors',
    primary: 'genart-storage',
    secondary: ['genart-curators-podcast', 'genart-studio-visit-video'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'From the studio and the curators',
    verbalDescriptor:
      'Where a work is stored shapes how long it lasts, and hearing from curators and artists shows what makes it worth keeping.',
  },

  // DAO governance (2)
  {
    date: '2026-09-23T06:00:00.000Z',
    audience: 'dao-governance',
    primary: 'dao-optimistic-governance',
    secondary: ['dao-delegate-pay'],
    primaryStoriesHeader: 'This week in governance',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Voter fatigue is the biggest threat to DAOs; optimistic models and paid delegates are two ways to fight it.',
  },
  {
    date: '2026-11-05T06:00:00.000Z',
    audience: 'dao-governance',
    primary: 'dao-legal-wrappers',
    secondary: ['dao-voting-power-video', 'dao-treasury-podcast'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Watch and listen',
    verbalDescriptor:
      'Legal structure, voting concentration and treasury policy together decide who really holds power in your DAO.',
  },

  // Stablecoin payments (2)
  {
    date: '2026-09-26T06:00:00.000Z',
    audience: 'stablecoin-payments',
    primary: 'stable-gas-abstraction',
    secondary: ['stable-merchant-reconciliation'],
    primaryStoriesHeader: 'This week in payments',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Payments succeed when users never see gas and finance teams can match every transfer to an invoice.',
  },
  {
    date: '2026-11-06T06:00:00.000Z',
    audience: 'stablecoin-payments',
    primary: 'stable-checkout-video',
    secondary: ['stable-reserve-attestations', 'stable-remittances-podcast'],
    primaryStoriesHeader: 'Build along',
    secondaryStoriesHeader: 'Also on the radar',
    verbalDescriptor:
      'From checkout to cash-out to reserves: the full path a stablecoin payment takes, and where each part can fail.',
  },

  // Crypto policy (2)
  {
    date: '2026-10-14T06:00:00.000Z',
    audience: 'crypto-policy',
    primary: 'policy-defi-frontends',
    secondary: ['policy-stablecoin-frameworks', 'policy-travel-rule-podcast'],
    primaryStoriesHeader: 'This week in policy',
    secondaryStoriesHeader: 'Catch up on the month',
    verbalDescriptor:
      'Front-ends, stablecoins and wallet transfers are where current rule-making is concentrated; here is what to follow.',
  },
  {
    date: '2026-11-12T06:00:00.000Z',
    audience: 'crypto-policy',
    primary: 'policy-comment-letters',
    secondary: ['policy-broker-reporting-video'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Explainer',
    verbalDescriptor:
      'Reporting rules are arriving, and a well-written comment letter is the most direct way for builders to shape them.',
  },

  // Solana developers (2)
  {
    date: '2026-09-24T06:00:00.000Z',
    audience: 'solana-devs',
    primary: 'sol-token-extensions',
    secondary: ['sol-compute-units'],
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Richer tokens cost more compute and account space; profile first, then decide which extensions you really need.',
  },
  {
    date: '2026-11-03T06:00:00.000Z',
    audience: 'solana-devs',
    primary: 'sol-priority-fees',
    secondary: ['sol-fast-tests-video', 'sol-client-diversity-podcast'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Watch and listen',
    verbalDescriptor:
      'Landing transactions reliably without overcharging users is a product decision as much as a technical one.',
  },

  // ZK researchers (2)
  {
    date: '2026-10-13T06:00:00.000Z',
    audience: 'zk-researchers',
    primary: 'zk-lookup-arguments',
    secondary: ['zk-folding-survey', 'zk-zkvm-podcast'],
    primaryStoriesHeader: 'This week in proving',
    secondaryStoriesHeader: 'Go deeper',
    verbalDescriptor:
      'Lookups, folding and zkVMs are the building blocks of modern provers; three pieces to refresh the fundamentals.',
  },
  {
    date: '2026-11-09T06:00:00.000Z',
    audience: 'zk-researchers',
    primary: 'zk-soundness-bugs',
    secondary: ['zk-gpu-proving-video'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Watch this one',
    verbalDescriptor:
      'Faster provers matter only if the circuits are sound; a bug taxonomy and a realistic look at GPU speedups.',
  },

  // On-chain data analysts (2)
  {
    date: '2026-09-29T06:00:00.000Z',
    audience: 'onchain-analysts',
    primary: 'data-dex-volume',
    secondary: ['data-address-labelling'],
    primaryStoriesHeader: 'This week in data',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'Two of the most common sources of misleading charts: counting the same trade twice and trusting labels blindly.',
  },
  {
    date: '2026-11-16T06:00:00.000Z',
    audience: 'onchain-analysts',
    primary: 'data-retention-cohorts',
    secondary: ['data-decoding-logs-video', 'data-dashboards-podcast'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Watch and listen',
    verbalDescriptor:
      'Retention curves are the metrics teams act on; get the query right, decode cleanly and build dashboards people use.',
  },

  // Wallet UX designers (2)
  {
    date: '2026-10-04T06:00:00.000Z',
    audience: 'wallet-ux',
    primary: 'wallet-signing-screens',
    secondary: ['wallet-passkeys'],
    primaryStoriesHeader: 'This week in wallet design',
    secondaryStoriesHeader: 'Also worth your five minutes',
    verbalDescriptor:
      'The two moments that define trust in a wallet: creating the account and signing the first transaction.',
  },
  {
    date: '2026-11-18T06:00:00.000Z',
    audience: 'wallet-ux',
    primary: 'wallet-error-messages',
    secondary: ['wallet-chain-abstraction-video', 'wallet-recovery-podcast'],
    primaryStoriesHeader: 'Lead story',
    secondaryStoriesHeader: 'Watch and listen',
    verbalDescriptor:
      'Failures, fragmented balances and lost devices are where wallets lose people; design for them from the start.',
  },
];
