// The web3 field's topics, written by the project (docs/decisions/0046-domain-ranker.md): each
// with the names people use for its things and a plain description in the words readers write
// ("dollar tokens", "front-running bots"). domain.ts learns a topic profile for every word from
// this text, and the corpus snapshot adds the new names it meets in articles (corpus.ts), so this
// list is where the ranker starts, not all it knows.
export type DomainTopic = {
  /** Stable key, also what a corpus snapshot stores. */
  id: string;
  /** How a reason names the field: "for your clue on {name}" reads well. */
  name: string;
  /** Names of the topic's things, comma-separated: each word and phrase counts in full. */
  terms: string;
  /** How readers describe the topic: each content word counts half. */
  about: string;
};

export const DOMAIN_TOPICS: DomainTopic[] = [
  {
    id: 'security',
    name: 'smart-contract security',
    terms:
      'smart-contract security, security researcher, audit, audits, auditor, auditing, audit firm, audit contest, audit report, bug bounty, bounty, exploit, exploits, exploited, hack, hacked, hacker, attacker, attack, vulnerability, vulnerabilities, bug, bugs, critical finding, findings, reentrancy, read-only reentrancy, storage collision, storage collisions, storage slot, storage layout, upgradeable proxy, proxies, proxy, upgradeable, signature replay, replay attack, replay, permit, permits, signatures, nonce, access control, invariant, invariants, fuzzing, fuzz, fuzzer, formal verification, formal methods, static analysis, incident response, war room, post-mortem, drained, drain, white hat, whitehat, rekt, security council, multisig, backdoor, phishing, rug pull, soundness',
    about:
      'Finding and fixing bugs in smart contracts before attackers do. Auditors review Solidity code, write reports with critical findings, run contests and bounties; researchers study exploits and hacks that drained funds, reentrancy, signature replay, storage collisions in upgradeable proxies, and prove code correct with formal verification and fuzzing of invariants. Incident response when a protocol is attacked.',
  },
  {
    id: 'lending',
    name: 'lending and liquidations',
    terms:
      'lending, lending market, lending markets, lending protocol, borrow, borrowing, borrower, borrowers, lender, loan, loans, collateral, collateralised, overcollateralised, liquidation, liquidations, liquidator, liquidators, liquidation engine, keepers, health factor, bad debt, interest rate, interest rates, isolated markets, risk curator, risk curators, Aave, Compound, Morpho, Euler, Spark, oracle, oracles, oracle lag, oracle latency, price oracle, price feed, price feeds, Chainlink, Pyth, stale price, TWAP, leverage, margin, credit',
    about:
      'Money markets where people lend and borrow crypto against collateral. When prices fall, positions are liquidated by liquidators and keepers; the price comes from oracles and price feeds, and oracle lag or stale prices cause unfair liquidations and bad debt. Risk curators set parameters for isolated lending markets.',
  },
  {
    id: 'defi',
    name: 'DeFi protocols',
    terms:
      'DeFi, decentralised finance, decentralized finance, protocol, protocols, AMM, automated market maker, DEX, DEXes, decentralised exchange, decentralized exchange, swap, swaps, liquidity, liquidity pool, liquidity pools, liquidity provider, LP, yield, yields, vault, vaults, Uniswap, Curve, Balancer, hooks, hook, intent, intents, intent-based, solver, solvers, perpetuals, perps, derivatives, fee switch, protocol fees, TVL, total value locked, composability, points, points programme, airdrop, airdrops, farming, yield farming',
    about:
      'Financial apps built from smart contracts: exchanges, swaps, liquidity pools, yield vaults and derivatives that anyone can use without a bank. Builders design fees, incentives, points and airdrops, and intents filled by solvers.',
  },
  {
    id: 'mev',
    name: 'MEV',
    terms:
      'MEV, maximal extractable value, miner extractable value, searcher, searchers, searching, builder, builders, block builder, block builders, bundle, bundles, backrun, backrunning, backruns, sandwich, sandwiching, sandwich attack, frontrunning, frontrun, frontrunners, bots, bot, arbitrage, arbitrageur, arbitrageurs, order flow, order flow auction, order flow auctions, OFA, private mempool, mempool, relay, relays, PBS, proposer-builder separation, Flashbots, MEV-Boost, bundle simulator, simulation, cross-domain MEV, priority gas, toxic flow',
    about:
      'Value that bots capture by ordering transactions in a block: searchers run arbitrage, backrunning and frontrunning bots that sandwich traders, send bundles to block builders and relays, and order flow auctions pay some of it back to users.',
  },
  {
    id: 'stablecoins',
    name: 'stablecoins and payments',
    terms:
      'stablecoin, stablecoins, stable coin, stable coins, dollar token, dollar tokens, digital dollar, digital dollars, USDC, USDT, Tether, Circle, DAI, USDe, PYUSD, peg, pegged, depeg, depegged, reserves, reserve, reserve attestation, attestation, redemption, redemptions, issuer, issuers, payments, payment, payment rails, payment links, merchant, merchants, checkout, settlement, settling, remittance, remittances, cross-border, cash-out, off-ramp, on-ramp, ramps, reconciliation, invoices, payroll',
    about:
      'Crypto dollars: tokens pegged to the US dollar or euro, backed by reserves that issuers attest to, and whether they are safe or could lose their peg. People use them to pay merchants, send remittances across borders, settle invoices and cash out to local money.',
  },
  {
    id: 'policy',
    name: 'crypto policy and regulation',
    terms:
      'regulation, regulations, regulator, regulators, regulatory, policy, policymakers, law, laws, lawmakers, legislation, bill, Congress, Senate, SEC, CFTC, Treasury, IRS, MiCA, ESMA, FCA, compliance, compliant, enforcement, lawsuit, court, courts, ruling, sanctions, OFAC, KYC, AML, anti-money laundering, travel rule, broker, broker rules, broker reporting, reporting rules, tax, taxes, tax reporting, comment letter, comment period, guidance, framework, frameworks, jurisdictions, jurisdiction, licence, license, licensing, securities, lobbying',
    about:
      'Governments and regulators deciding how crypto is treated: rules from the SEC, CFTC and Treasury in the US and MiCA in Europe, court rulings, tax and broker reporting, licences, KYC and the travel rule, and how the industry answers with comment letters.',
  },
  {
    id: 'dao',
    name: 'DAO governance',
    terms:
      'DAO, DAOs, governance, governance token, governance tokens, delegate, delegates, delegation, delegating, vote, votes, voting, voter, voters, voting power, proposal, proposals, quorum, veto, optimistic governance, token holders, tokenholders, treasury, treasuries, treasury management, grants, grant, grants programme, steward, stewards, council, snapshot, on-chain voting, forum, constitution, delegate pay, delegate compensation',
    about:
      'How communities that hold tokens run protocols together: delegates and token holders vote on proposals, manage the treasury, fund grants and pay contributors, and argue about power concentrated in a few wallets.',
  },
  {
    id: 'rollups',
    name: 'layer-2 rollups',
    terms:
      'rollup, rollups, layer 2, layer-2, L2, L2s, layer two, optimistic rollup, zk rollup, zk-rollup, sequencer, sequencers, sequencing, based sequencing, shared sequencer, shared sequencers, decentralised sequencer, fault proof, fault proofs, fraud proof, fraud proofs, bisection, forced inclusion, escape hatch, data availability, DA, blob, blobs, blob fees, blob fee market, calldata, Arbitrum, Optimism, OP Stack, Superchain, Base, zkSync, Starknet, Scroll, Linea, Polygon, full node, full nodes, interoperability, bridge, bridges, bridging, cross-chain, withdrawal, stage 1, stage 2, L2BEAT, appchain, appchains',
    about:
      'Chains that run on top of Ethereum to make transactions cheaper: sequencers order transactions, fault proofs and validity proofs keep them honest, blobs carry their data, and bridges move assets between chains.',
  },
  {
    id: 'ethereum',
    name: 'the Ethereum protocol',
    terms:
      'Ethereum, ETH, Ether, mainnet, core developers, core devs, All Core Devs, hard fork, hard forks, network upgrade, upgrade, upgrades, EIP, EIPs, Dencun, Pectra, Fusaka, Glamsterdam, Shapella, the Merge, proto-danksharding, danksharding, PeerDAS, blobs, gas limit, gas, gas fees, execution client, consensus client, Geth, Nethermind, Besu, Erigon, Reth, Prysm, Lighthouse, Teku, client diversity, testnet, testnets, Holesky, Sepolia, Hoodi, Vitalik, Buterin, Ethereum Foundation, EVM, beacon chain, slots, epochs, finality',
    about:
      'The Ethereum network itself: core developers plan hard forks and upgrades, clients implement them, testnets rehearse them, and researchers like Vitalik Buterin propose changes to gas, blobs and the beacon chain.',
  },
  {
    id: 'staking',
    name: 'staking and validators',
    terms:
      'staking, stake, staked, stakers, staker, validator, validators, validating, node operator, node operators, operator, operators, staking pool, liquid staking, LST, Lido, Rocket Pool, community staking module, exit queue, entry queue, withdrawals, slashing, slashed, missed slots, attestations, proposer, distributed validator, distributed validators, DVT, Obol, SSV, solo staker, solo stakers, home staker, staking rewards, rewards, uptime, relay bug, inflation, issuance',
    about:
      'Running validators that secure proof-of-stake chains and earn rewards: node operators, solo and home stakers, liquid staking pools, exit queues, slashing for misbehaving, missed slots and the infrastructure behind it.',
  },
  {
    id: 'restaking',
    name: 'restaking',
    terms:
      'restaking, restake, restaked, restakers, EigenLayer, Eigen, AVS, AVSs, actively validated services, Symbiotic, Karak, liquid restaking, LRT, LRTs, correlated slashing, shared security, operator set, operators',
    about:
      'Reusing staked ETH to secure other services: operators opt in to extra duties for extra rewards, and risk having their stake slashed, sometimes all at once when failures are correlated.',
  },
  {
    id: 'solana',
    name: 'Solana',
    terms:
      'Solana, SOL, Anchor, Solana program, Solana programs, program, programs, compute units, compute unit, priority fee, priority fees, Firedancer, Agave, Jito, Jupiter, Raydium, Orca, Phantom, Helius, SPL, token extensions, Token-2022, transfer hooks, confidential transfers, Sealevel, Rust, validator client, validator clients, Solana validators, Solana Foundation, Anza, Saga, Breakpoint',
    about:
      'The Solana chain and its builders: programs written in Rust with Anchor, compute units and priority fees, validator clients like Agave and Firedancer, and apps like Jupiter and Jito.',
  },
  {
    id: 'zk',
    name: 'zero-knowledge proofs',
    terms:
      'zero-knowledge, zero knowledge, ZK, ZKP, zk-SNARK, SNARK, SNARKs, STARK, STARKs, proof, proofs, proving, prover, provers, proof system, proof systems, verifier, circuit, circuits, constraint, constraints, zkVM, zkVMs, RISC Zero, SP1, folding, folding schemes, Nova, lookup, lookup arguments, PLONK, Halo2, polynomial commitments, GPU proving, proving costs, co-processor, coprocessor, soundness, soundness bugs, cryptography, recursion',
    about:
      'Cryptographic proofs that show a computation is right without revealing or repeating it: circuits, proof systems, zkVMs, faster provers on GPUs, and the bugs that make proofs unsound.',
  },
  {
    id: 'genart',
    name: 'generative art and NFTs',
    terms:
      'generative art, generative, art, artwork, artworks, artist, artists, NFT, NFTs, collector, collectors, collecting, collection, collections, long-form, long-form generative, series, edition, editions, mint, minting, drop, drops, curator, curators, curation, curated, gallery, Art Blocks, fxhash, provenance, royalties, creator royalties, marketplace, marketplaces, OpenSea, on-chain art, IPFS, Arweave, metadata, studio, algorithm, pen plotter',
    about:
      'Art made by code and collected on-chain: artists write algorithms that paint, collectors mint long-form series and check provenance, curators pick drops, and people ask where the artwork actually lives.',
  },
  {
    id: 'analytics',
    name: 'on-chain data and analytics',
    terms:
      'on-chain data, on-chain analysis, analytics, analyst, analysts, dashboard, dashboards, Dune, Nansen, Flipside, query, queries, SQL, event logs, logs, decoding, indexer, indexing, address labelling, labels, heuristics, cohort, cohorts, retention, metrics, volume, double-counting, data pipeline, charts, wallet cohorts, active addresses',
    about:
      'Reading what happens on chains from the raw data: analysts decode event logs, label addresses, build dashboards and queries, and measure volume, users and retention without double-counting.',
  },
  {
    id: 'wallets',
    name: 'wallets and user experience',
    terms:
      'wallet, wallets, self-custody, seed phrase, seed phrases, private key, private keys, passkey, passkeys, smart account, smart accounts, account abstraction, ERC-4337, EIP-7702, paymaster, gas abstraction, gasless, social recovery, recovery, signing, signing screen, signing screens, signature request, transaction simulation, error messages, failed transactions, chain abstraction, onboarding, UX, user experience, interface, design, designer, MetaMask, Rabby, Safe, embedded wallet',
    about:
      'Making crypto usable: wallets that hold keys safely, onboarding without seed phrases, passkeys and smart accounts, readable signing screens and error messages, and hiding chains and gas from people.',
  },
  {
    id: 'gaming',
    name: 'on-chain games',
    terms:
      'game, games, gaming, gamer, gamers, player, players, play-to-earn, in-game, in-game assets, game assets, game studio, studios, onchain games, autonomous worlds, items, skins, guild, guilds, esports, metaverse',
    about:
      'Games whose items and economies live on-chain: studios design in-game assets players truly own, and player economies that stay fun without speculation.',
  },
  {
    id: 'rwa',
    name: 'tokenised real-world assets',
    terms:
      'real-world assets, real world assets, RWA, RWAs, tokenisation, tokenization, tokenised, tokenized, tokenize, tokenise, tokenized treasuries, treasury bills, T-bills, bonds, money market fund, money market funds, private credit, funds, fund, asset manager, asset managers, BlackRock, BUIDL, Franklin Templeton, Ondo, securities, custody, custodian, transfer agent, settlement, real estate, commodities, gold',
    about:
      'Bringing traditional assets like bonds, treasury bills, funds, credit and real estate on-chain as tokens, with custodians, transfer agents and asset managers.',
  },
  {
    id: 'bitcoin',
    name: 'Bitcoin',
    terms:
      'Bitcoin, BTC, bitcoiners, miner, miners, mining, hashrate, hash rate, halving, difficulty, Lightning, Lightning Network, ordinals, inscriptions, runes, taproot, sats, satoshis, UTXO, Bitcoin ETF, Bitcoin layer 2, BitVM',
    about:
      'The Bitcoin network: miners and their revenue, hashrate, halvings, Lightning payments and what people build on Bitcoin.',
  },
  {
    id: 'markets',
    name: 'crypto markets and funding',
    terms:
      'price, prices, market, markets, rally, crash, sell-off, bull market, bear market, trading, traders, trader, exchange, exchanges, Coinbase, Binance, Kraken, ETF, ETFs, inflows, outflows, fundraise, fundraising, raises, raised, funding round, seed round, Series A, venture, investors, valuation, token launch, listing, market cap',
    about:
      'Prices, trading and money flowing into crypto: exchanges, ETFs, rallies and crashes, and startups raising funding from investors.',
  },
  {
    id: 'events',
    name: 'events and community',
    terms:
      'conference, conferences, event, events, side events, DevConnect, Devcon, ETHDenver, EthCC, Token2049, hackathon, hackathons, meetup, meetups, workshop, summit, register, registration, tickets, sponsored',
    about: 'Gatherings of the crypto community: conferences, side events, hackathons and meetups.',
  },
];
