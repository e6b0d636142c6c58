// The local assistant: a deterministic interviewer (ADR 0022). It cannot converse, so it walks a
// reader through a fixed sequence of questions (what they do, what exactly, which chains, their
// role), skipping what the reader already said and never asking twice, and it reads the clues out
// of the answers: a first-person sentence is a clue as written, an answer fragment completes the
// question it answers ("Ethereum and Arbitrum" after the chains question extends "I build lending
// protocols" to "I build lending protocols on Ethereum and Arbitrum").
import type { ItemSentence } from 'wink-nlp';
import type { ChatMessage } from '../types';
import type { ClueChanges } from '../tasks';
import { keyphrases, terms, wink } from './text';

type Slot = 'activity' | 'topic' | 'chain' | 'role';
type Question = Slot | 'more';

/** The interview's questions in the order asked, and how each is recognised in a transcript. */
const QUESTIONS: Record<Question, { text: (verb: string) => string; asked: RegExp }> = {
  activity: {
    text: () => 'What do you do in web3? Do you build, invest in, research or collect something?',
    asked: /what do you do in web3/i,
  },
  topic: {
    text: (verb) =>
      `What exactly do you ${verb}? For example lending protocols, NFT marketplaces or DAO tooling.`,
    asked: /what exactly do you/i,
  },
  chain: {
    text: () =>
      'Which chains or ecosystems matter most for that? For example Ethereum, Solana or an L2.',
    asked: /which chains or ecosystems/i,
  },
  role: {
    text: () => 'What is your role: developer, founder, researcher, investor, designer or another?',
    asked: /what is your role/i,
  },
  more: {
    text: () =>
      'Thanks, that gives me a good picture. Is there anything else you follow closely? ' +
      'When you are done, finish the interview to see your clues.',
    asked: /anything else you follow closely/i,
  },
};
const ORDER: Slot[] = ['activity', 'topic', 'chain', 'role'];

/** What a reader does, as the verb phrase a clue uses, by the words that say it. */
const ACTIVITIES: [RegExp, string][] = [
  [/^(build|building|built|develop|developing|ship|shipping|code|coding)$/, 'build'],
  [/^(invest|investing|fund|funding|back|backing)$/, 'invest in'],
  [/^(research|researching|study|studying|analyse|analyze|analysing|analyzing)$/, 'research'],
  [/^(collect|collecting)$/, 'collect'],
  [/^(trade|trading)$/, 'trade'],
  [/^(audit|auditing)$/, 'audit'],
  [/^(design|designing)$/, 'design'],
  [/^(write|writing)$/, 'write about'],
  [/^(run|running|operate|operating)$/, 'run'],
];

const CHAINS: [string, RegExp][] = [
  ...[
    'Ethereum',
    'Solana',
    'Bitcoin',
    'Arbitrum',
    'Optimism',
    'Polygon',
    'Avalanche',
    'Cosmos',
    'Polkadot',
    'Aptos',
    'Starknet',
    'zkSync',
    'Scroll',
    'Linea',
    'Cardano',
    'Celestia',
    'Tron',
  ].map((name): [string, RegExp] => [name, new RegExp(`\\b${name}\\b`, 'i')]),
  // Ordinary words too: only with their capital letter.
  ...['Base', 'Near', 'Sui', 'TON'].map((name): [string, RegExp] => [
    name,
    new RegExp(`\\b${name}\\b`),
  ]),
];

const ROLE =
  /\b(developer|engineer|founder|co-?founder|researcher|analyst|investor|trader|designer|product manager|auditor|marketer|community manager|student|writer|journalist|partner|ceo|cto|operator|steward|lawyer|economist)s?\b/i;

const REMOVAL =
  /\b(no longer|not interested( in)?|don'?t care( about)?|remove|stop(ped)?( caring about)?|drop|forget)\b/i;
const FILLER =
  /^(done|that'?s (it|all)|nothing( else)?|no(pe)?|thanks?( you)?|thank you|ok(ay)?|yes|yep|sure)$/i;
const HEDGES = /\b(also|mostly|mainly|really|just|primarily|currently)\b\s*/gi;

function activityOf(text: string): string | undefined {
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    const found = ACTIVITIES.find(([pattern]) => pattern.test(word));
    if (found) return found[1];
  }
  return undefined;
}

const chainsIn = (text: string) =>
  CHAINS.filter(([, pattern]) => pattern.test(text)).map(([n]) => n);

/** Keyphrases that name a topic: not a chain, not a role. */
const topicsIn = (text: string) =>
  keyphrases(text).filter(
    (phrase) => !ROLE.test(phrase) && chainsIn(phrase).length === 0 && !activityOf(phrase),
  );

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

function questionOf(message: ChatMessage): Question | undefined {
  if (message.role !== 'assistant') return undefined;
  const found = (Object.keys(QUESTIONS) as Question[]).filter((q) =>
    QUESTIONS[q].asked.test(message.content),
  );
  return found.at(-1);
}

/** The next reply of the interview: what it heard in the last answer, then the next question. */
export function interviewReply(messages: ChatMessage[]): string {
  const asked = new Set(messages.map(questionOf).filter((q) => q !== undefined));
  const answers = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const said = answers.join('\n');
  const verb = activityOf(said);
  const filled: Record<Slot, boolean> = {
    activity: verb !== undefined,
    topic: topicsIn(said).length > 0,
    chain: chainsIn(said).length > 0,
    role: ROLE.test(said),
  };
  const next: Question = ORDER.find((slot) => !filled[slot] && !asked.has(slot)) ?? 'more';
  const last = answers.at(-1) ?? '';
  const heard = [
    ...keyphrases(last)
      .filter((phrase) => chainsIn(phrase).length === 0)
      .slice(0, 3),
    ...chainsIn(last),
  ];
  const ack = REMOVAL.test(last)
    ? 'Noted, I will drop that. '
    : heard.length > 0
      ? `Got it: ${heard.join(', ')}. `
      : '';
  return ack + QUESTIONS[next].text(verb ?? 'do');
}

const lowerFirst = (text: string) =>
  /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
const withArticle = (text: string) =>
  /^(a|an|the)\b/i.test(text) ? text : `${/^[aeiou]/i.test(text) ? 'an' : 'a'} ${text}`;

function sentencesOf(text: string): string[] {
  const out: string[] = [];
  wink()
    .readDoc(text)
    .sentences()
    .each((sentence: ItemSentence) => {
      const tidy = sentence
        .out()
        .replace(/\bI['’]m\b/gi, 'I am')
        .replace(HEDGES, '')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.!?,;]+$/, '');
      if (tidy && !FILLER.test(tidy) && terms(tidy).length > 0) out.push(tidy);
    });
  return out;
}

/** The reader's clues out of a conversation; removals matched to current clues. */
export function cluesFrom(messages: ChatMessage[], currentClues: string[]): ClueChanges {
  const clues: string[] = [];
  const removals: string[] = [];
  let question: Question | undefined;
  let verb: string | undefined;
  /** The latest clue that says what the reader does: where a chains answer attaches. */
  let activityClue: number | undefined;

  for (const message of messages) {
    if (message.role === 'assistant') {
      question = questionOf(message) ?? question;
      continue;
    }
    if (message.role !== 'user') continue;
    for (const sentence of sentencesOf(message.content)) {
      if (REMOVAL.test(sentence)) {
        removals.push(sentence);
        continue;
      }
      const chains = chainsIn(sentence);
      const activity = activityOf(sentence);
      if (/^i\b/i.test(sentence)) {
        clues.push(`I${sentence.slice(1)}`);
        if (activity) {
          verb = activity;
          activityClue = clues.length - 1;
        }
      } else if (chains.length > 0 && topicsIn(sentence).length === 0 && !activity) {
        const target = activityClue === undefined ? undefined : clues[activityClue];
        if (target !== undefined && chainsIn(target).length === 0) {
          clues[activityClue!] = `${target} on ${listed(chains)}`;
        } else clues.push(`I follow ${listed(chains)}`);
      } else if (question === 'role' || (ROLE.test(sentence) && !activity)) {
        clues.push(`I am ${withArticle(lowerFirst(sentence))}`);
      } else {
        const [first, ...rest] = sentence.split(' ');
        const leading = activityOf(first ?? '');
        clues.push(
          leading
            ? `I ${leading} ${rest.join(' ')}`
            : `I ${question === 'topic' || question === 'activity' ? (verb ?? 'follow') : 'follow'} ${lowerFirst(sentence)}`,
        );
        if (leading) {
          verb = leading;
          activityClue = clues.length - 1;
        }
      }
    }
  }

  const stemsOf = (text: string) => new Set(terms(text).map((t) => t.stem));
  const overlap = (a: Set<string>, b: Set<string>) =>
    [...a].filter((s) => b.has(s)).length / Math.max(1, Math.min(a.size, b.size));
  const removed = new Set<string>();
  for (const sentence of removals) {
    const stems = stemsOf(sentence.replace(new RegExp(REMOVAL.source, 'gi'), ' '));
    for (const clue of currentClues) if (overlap(stems, stemsOf(clue)) >= 0.5) removed.add(clue);
  }
  const added: string[] = [];
  for (const clue of clues) {
    // "I research stuff" says what the reader does but not about what: no use for picking stories.
    if (terms(clue).every((term) => activityOf(term.word))) continue;
    const stems = stemsOf(clue);
    const known = [...currentClues, ...added].some(
      (other) => overlap(stems, stemsOf(other)) >= 0.8,
    );
    if (!known) added.push(clue);
  }
  return {
    cluesToBeAdded: added,
    cluesToBeRemoved: [...removed],
    cluesToRemain: currentClues.filter((clue) => !removed.has(clue)),
  };
}
