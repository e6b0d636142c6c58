// The local assistant: a deterministic interviewer (ADR 0022). It cannot converse, so it walks a
// reader through a fixed sequence of questions (what they do, what exactly, which chains, their
// role), skipping what the reader already said and never asking twice, and it reads the clues out
// of the answers: a first-person sentence is a clue as written, an answer fragment completes the
// question it answers ("Ethereum and Arbitrum" after the chains question extends "I build lending
// protocols" to "I build lending protocols on Ethereum and Arbitrum"). It acknowledges an answer
// by the clue it made of it, addressed to the reader ("Noted: you collect generative art"), and an
// answer that says there is nothing more ("No, that covers it") ends the interview: no clue.
// Conversations about changing clues are read by edits.ts; storyClues makes a story's clue chips.
import type { ItemSentence, ItemToken } from 'wink-nlp';
import type { ChatMessage, Story } from '../types';
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
/**
 * Words that add nothing to what a reader follows: refusals, thanks, hedges, 'that covers it'. A
 * sentence made only of these is no clue, whatever its shape ("I am not sure", "No, that's all").
 */
const EMPTY_WORDS = new Set(
  (
    "no nope nah not nothing none else more any anything that that's thats this it it's its is " +
    "was all everything covers cover covered about i i'm im am me done finished set for now " +
    'thanks thank thx you ok okay yes yep yeah sure good fine great perfect alright really ' +
    "think so pretty much enough just that'll do don't dont know can't cant of there right " +
    "maybe the at moment in particular well oh hmm idk we we are were we're be will would " +
    'have has got to from me cheers bye let leave'
  ).split(' '),
);
/** What says "that is all" outright, whatever question it answers. */
const CLOSING =
  /\b(that'?s (it|all|everything)|that is (it|all|everything)|covers it|covered it|nothing (else|more)|no(thing)? more|(i'?m|i am|we'?re|all) (done|finished|set)|that'?s enough|that'?ll do|no,? thanks?( you)?)\b/i;
/** A bare refusal: the end only as the answer to 'anything else?'. */
const REFUSAL = /^(no|nope|nah|nothing|none)\b/i;
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

const wordsOf = (sentence: string) =>
  sentence
    .toLowerCase()
    .replace(/’/g, "'")
    .match(/[a-z0-9']+/g) ?? [];
export const saysNothing = (sentence: string) => wordsOf(sentence).every((w) => EMPTY_WORDS.has(w));

/** Whether this sentence, answering `question`, says the reader has nothing more to add. */
const closes = (sentence: string, question: Question | undefined) =>
  saysNothing(sentence) &&
  (CLOSING.test(sentence) || (question === 'more' && REFUSAL.test(sentence)));

export const listed = (items: string[], conj = 'and') =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conj} ${items.at(-1)}`;

function questionOf(message: ChatMessage): Question | undefined {
  if (message.role !== 'assistant') return undefined;
  const found = (Object.keys(QUESTIONS) as Question[]).filter((q) =>
    QUESTIONS[q].asked.test(message.content),
  );
  return found.at(-1);
}

const CLOSING_REPLY = "Thanks, that's all I need. Choose Complete Interview to see your clues.";

/** A clue said back to the reader: "I collect generative art" -> "you collect generative art". */
export function addressed(clue: string): string {
  return clue
    .replace(/^I am\b/, 'you are')
    .replace(/^I was\b/, 'you were')
    .replace(/^I\b/, 'you')
    .replace(/\bI am\b/g, 'you are')
    .replace(/\bI\b/g, 'you')
    .replace(/\bmyself\b/gi, 'yourself')
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bmine\b/gi, 'yours')
    .replace(/\bme\b/gi, 'you');
}

/**
 * The next reply of the interview: the clues the last answer made, said back to the reader, then
 * the next question, or the end when the answer says there is nothing more.
 */
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
  const lastAt = messages.findLastIndex((m) => m.role === 'user');
  const last = messages[lastAt]?.content ?? '';
  const answered = messages.slice(0, Math.max(0, lastAt)).map(questionOf).findLast(Boolean);
  const before = new Set(cluesFrom(messages.slice(0, Math.max(0, lastAt)), []).cluesToBeAdded);
  const heard = cluesFrom(messages, []).cluesToBeAdded.filter((clue) => !before.has(clue));
  const ack = REMOVAL.test(last)
    ? 'Noted, I will drop that. '
    : heard.length > 0
      ? `Noted: ${listed(heard.map(addressed))}. `
      : '';
  const closing = sentencesOf(last).at(-1);
  if (closing !== undefined && closes(closing, answered)) return ack + CLOSING_REPLY;
  return ack + QUESTIONS[next].text(verb ?? 'do');
}

/** "Smart contract engineer" -> "smart contract engineer"; "DeFi" and chain names keep theirs. */
const lowerFirst = (text: string) => {
  const first = text.split(/\s/)[0] ?? '';
  return /^[A-Z][a-z]*$/.test(first) && chainsIn(first).length === 0
    ? text[0]!.toLowerCase() + text.slice(1)
    : text;
};
const withArticle = (text: string) =>
  /^(a|an|the)\b/i.test(text) ? text : `${/^[aeiou]/i.test(text) ? 'an' : 'a'} ${text}`;

/** The sentences of an answer, tidied ("I'm" -> "I am", hedges dropped, end punctuation off). */
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
      if (tidy) out.push(tidy);
    });
  return out;
}

/** The reader's clues out of an interview; removals matched to current clues. */
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
      // "No, that covers it", "Not sure", "Thanks": nothing the reader follows.
      if (saysNothing(sentence) || terms(sentence).length === 0) continue;
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
    mutesToBeAdded: [],
    mutesToBeRemoved: [],
  };
}

/** The words of a key phrase (wink's lower-cased forms) found as the story writes them. */
function asWritten(phrase: string, text: string): { surface: string; at: number } | undefined {
  const words = phrase.split(' ').map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // A hyphenated prefix wink split off belongs to the phrase: "zero-knowledge co-processor".
  const found = new RegExp(
    `(?<![\\w-])(?:[a-z0-9]+-)*${words.join('[\\s-]+')}(?![\\w-])`,
    'i',
  ).exec(text);
  return found ? { surface: found[0], at: found.index } : undefined;
}

/**
 * Whether a word of a story is a name: a chain, a capital inside it ("EigenLayer", "AVSs"), or a
 * capital after a lower-case word somewhere in the story (not only because it starts a sentence).
 */
function isName(word: string, text: string): boolean {
  if (!/^[A-Z]/.test(word) && !/[A-Z]/.test(word.slice(1))) return false;
  if (chainsIn(word).length > 0 || /[A-Z]/.test(word.slice(1))) return true;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b[a-z][\\w'’-]*[ \\t]+${escaped}(?![\\w-])`).test(text);
}

/** Names that are capitalised but name no topic a reader follows. */
const CALENDAR =
  /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/** The stems of the words a text writes in lower case. */
function lowerCaseStems(text: string): Set<string> {
  const { its } = wink();
  const stems = new Set<string>();
  wink()
    .readDoc(text)
    .tokens()
    .each((token: ItemToken) => {
      // wink's types miss that its.stem takes the model's addons (see text.ts).
      if (/^[a-z]/.test(token.out()))
        stems.add(token.out(its.stem as unknown as typeof its.normal));
    });
  return stems;
}

/** At most this many words in a story clue: longer noun runs read as a headline, not a topic. */
const STORY_PHRASE_WORDS = 5;

/**
 * Clues a reader who liked a story could add in one click ("I follow restaking protocols"): the
 * story's key phrases, title first and in the order written, a lone word only when it is a name.
 * None the reader already has (the same clue in any case, or one naming the phrase). Deterministic:
 * the same story and clues give the same clues, with or without a language model.
 */
export function storyClues(
  story: Pick<Story, 'title' | 'summary'>,
  currentClues: string[],
  max = 2,
): string[] {
  const text = `${story.title}\n${story.summary}`;
  const held = currentClues.map((clue) => clue.toLowerCase());
  const phrases: { surface: string; inTitle: boolean }[] = [];
  for (const part of [story.title, story.summary]) {
    const found = keyphrases(part)
      .map((phrase) => asWritten(phrase, part))
      .filter((phrase) => phrase !== undefined)
      .sort((a, b) => a.at - b.at);
    phrases.push(...found.map(({ surface }) => ({ surface, inTitle: part === story.title })));
  }
  let lowered: Set<string> | undefined;
  /** Whether the story also writes this word in lower case ("Stablecoin" and "stablecoins"). */
  const common = (word: string) => {
    lowered ??= lowerCaseStems(text);
    return [...lowerCaseStems(word.toLowerCase())].every((stem) => lowered!.has(stem));
  };
  const clues: string[] = [];
  for (const { surface, inTitle } of phrases) {
    const words = surface.split(/\s+/);
    const [first = '', second = ''] = words;
    if (words.length > STORY_PHRASE_WORDS) continue;
    if (words.length === 1 && (!isName(first, text) || CALENDAR.test(first))) continue;
    // A capital only a sentence's start explains is dropped; a title leads with its actor, so an
    // unknown word there keeps it ("Uniswap v4"), a summary's sentence does not ("Smart accounts").
    const keep = isName(first, text) || /^[A-Z]/.test(second) || (inTitle && !common(first));
    const topic = keep ? surface : surface[0]!.toLowerCase() + surface.slice(1);
    const clue = `I follow ${topic}`;
    const lower = clue.toLowerCase();
    const known =
      held.some((h) => h === lower || h.includes(topic.toLowerCase())) ||
      clues.some((c) => c.toLowerCase() === lower);
    if (!known) clues.push(clue);
    if (clues.length === max) break;
  }
  return clues;
}
