import { describe, expect, it } from 'vitest';
import type { ChatMessage, Story } from '../types';
import { editReply, editsFrom, type EditContext } from './edits';

const LENDING = 'I build DeFi lending on Ethereum, with a focus on smart-contract security';
const RESEARCH = 'I research smart contract security: audits, exploits and formal verification';
const READER = [LENDING, RESEARCH];
const ART = 'I collect generative art';
const MEV = 'I research MEV';
const OPENING =
  'Here are the clues you have given us. What would you like to add, change or remove?';

const EIGENLAYER: Story = {
  title: 'EigenLayer slashing goes live for the first twelve AVSs',
  source: 'Blocknotes',
  summary: 'Operators must now opt in to operator sets with explicit slashing conditions.',
};

/** Plays the reader's messages against the assistant; the transcript with every reply. */
function converse(said: string[], context: EditContext): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'assistant', content: OPENING }];
  for (const content of said) {
    messages.push({ role: 'user', content });
    messages.push({ role: 'assistant', content: editReply(messages, context) });
  }
  return messages;
}

type Case = {
  said: string[];
  clues?: string[];
  mutes?: string[];
  story?: Story;
  feedback?: 'liked' | 'disliked';
  /** What 'Review my clues' proposes; anything left out is expected empty. */
  add?: string[];
  remove?: string[];
  mute?: string[];
  unmute?: string[];
  /** The last reply, as said back. */
  reply?: string | RegExp;
};

const CASES: Record<string, Case> = {
  // The three findings of issue 31, verbatim.
  'finding: "Add MEV and liquidation bots please"': {
    said: ['Add MEV and liquidation bots please'],
    clues: READER,
    add: ['I follow MEV and liquidation bots'],
    reply: 'Added: MEV and liquidation bots. Choose Review my clues when you are done.',
  },
  'finding: care about ... and stop showing ...': {
    said: [
      'I also care about liquidation mechanics and oracle risk. Please stop showing me Solana and DAO treasury stories.',
    ],
    clues: READER,
    add: ['I care about liquidation mechanics and oracle risk'],
    mute: ['Solana', 'DAO treasury'],
    reply:
      'Added: liquidation mechanics and oracle risk. Stop showing: Solana and DAO treasury. Choose Review my clues when you are done.',
  },
  'finding: "Drop the formal verification part, ..."': {
    said: ['Drop the formal verification part, I mostly care about audits and exploits'],
    clues: READER,
    add: ['I research smart contract security: audits and exploits'],
    remove: [RESEARCH],
    reply: new RegExp(
      `^Changed: “${RESEARCH}” to “I research smart contract security: audits and exploits”\\.`,
    ),
  },
  'the three findings in one conversation': {
    said: [
      'Add MEV and liquidation bots please',
      'I also care about liquidation mechanics and oracle risk. Please stop showing me Solana and DAO treasury stories.',
      'Drop the formal verification part, I mostly care about audits and exploits',
    ],
    clues: READER,
    // A changed clue keeps its place among the reader's clues.
    add: [
      'I research smart contract security: audits and exploits',
      'I follow MEV and liquidation bots',
      'I care about liquidation mechanics and oracle risk',
    ],
    remove: [RESEARCH],
    mute: ['Solana', 'DAO treasury'],
  },
  // Add.
  'add with "can you" and a question mark': {
    said: ['Can you add restaking protocols?'],
    clues: [ART],
    add: ['I follow restaking protocols'],
    reply: /^Added: restaking protocols\./,
  },
  'add with "I\'d like" and "to my clues"': {
    said: ["I'd like to add zero-knowledge rollups to my clues"],
    add: ['I follow zero-knowledge rollups'],
  },
  'add a first-person sentence as said, hedges dropped': {
    said: ['I also build wallets on Solana.'],
    clues: [ART],
    add: ['I build wallets on Solana'],
    reply: /^Added: you build wallets on Solana\./,
  },
  'add what the reader is interested in': {
    said: ["I'm really interested in account abstraction"],
    add: ['I am interested in account abstraction'],
    reply: /^Added: account abstraction\./,
  },
  'add a comma list as one clue': {
    said: ['Please add bridges, oracles and stablecoins'],
    add: ['I follow bridges, oracles and stablecoins'],
    reply: /^Added: bridges, oracles and stablecoins\./,
  },
  'a bare topic is an addition in a change of clues': {
    said: ['Liquid staking tokens'],
    add: ['I follow liquid staking tokens'],
  },
  'nothing is added twice': {
    said: ['Add MEV'],
    clues: [MEV],
    reply: /^Already in your clues: MEV\./,
  },
  'two additions in two messages': {
    said: ['add restaking', 'also add oracle design'],
    add: ['I follow restaking', 'I follow oracle design'],
  },
  // Remove.
  'remove "the X one"': {
    said: ['Remove the art one'],
    clues: [ART, MEV],
    remove: [ART],
    reply: `Removed: “${ART}”. Choose Review my clues when you are done.`,
  },
  'remove by "no longer into"': {
    said: ['I am no longer into generative art.'],
    clues: [ART, MEV],
    remove: [ART],
  },
  'remove by "stopped caring" and "forget it"': {
    said: ['I stopped caring about NFT gaming.', 'Forget it.'],
    clues: [ART, 'I play NFT gaming titles'],
    remove: ['I play NFT gaming titles'],
  },
  'remove by ordinal': {
    said: ['delete the second one'],
    clues: [ART, MEV],
    remove: [MEV],
  },
  '"remove it" with several clues asks which, then the answer removes it': {
    said: ['remove it', 'the MEV one'],
    clues: [ART, MEV],
    remove: [MEV],
  },
  '"remove it" with one clue removes it': {
    said: ['remove it please'],
    clues: [MEV],
    remove: [MEV],
  },
  '"remove it" after an addition removes the addition': {
    said: ['Add memecoins', 'actually remove it'],
    clues: [MEV],
  },
  'remove everything': {
    said: ['Remove all my clues'],
    clues: [ART, MEV],
    remove: [ART, MEV],
  },
  'removing what no clue has asks whether to mute it; yes mutes it': {
    said: ['Remove Solana', 'yes'],
    clues: READER,
    mute: ['Solana'],
    reply: /^Stop showing: Solana\./,
  },
  'removing what no clue has; no keeps everything': {
    said: ['Remove Solana', 'no'],
    clues: READER,
  },
  // Replace.
  'replace "instead of X, Y" in a list': {
    said: ['Instead of formal verification, I want MEV'],
    clues: READER,
    add: ['I research smart contract security: audits, exploits and MEV'],
    remove: [RESEARCH],
  },
  'replace X with Y': {
    said: ['Replace MEV with restaking'],
    clues: [ART, MEV],
    add: ['I research restaking'],
    remove: [MEV],
  },
  'replace "Y instead of X"': {
    said: ['I care about photography instead of generative art'],
    clues: [ART],
    add: ['I collect photography'],
    remove: [ART],
  },
  'change the X one to Y': {
    said: ['change the art one to music NFTs'],
    clues: [ART, MEV],
    add: ['I collect music NFTs'],
    remove: [ART],
  },
  'instead of a topic no clue has: mute it, add the other': {
    said: ['Instead of DAO stories, give me MEV'],
    clues: [ART],
    add: ['I follow MEV'],
    mute: ['DAO'],
  },
  // Keep part, drop part.
  'keep only part of a list': {
    said: ['Keep only audits'],
    clues: READER,
    add: ['I research smart contract security: audits'],
    remove: [RESEARCH],
  },
  'only care about two items': {
    said: ['I only care about audits and exploits'],
    clues: READER,
    add: ['I research smart contract security: audits and exploits'],
    remove: [RESEARCH],
  },
  'keep only one clue': {
    said: ['only keep the MEV one'],
    clues: [ART, MEV],
    remove: [ART],
  },
  'drop a prepositional part': {
    said: ['Can you remove the Ethereum part?'],
    clues: READER,
    add: ['I build DeFi lending, with a focus on smart-contract security'],
    remove: [LENDING],
  },
  'drop a comma phrase': {
    said: ['drop the smart-contract security focus from the lending one'],
    clues: READER,
    add: ['I build DeFi lending on Ethereum'],
    remove: [LENDING],
  },
  'drop a list item by its words alone': {
    said: ['no longer interested in exploits'],
    clues: READER,
    add: ['I research smart contract security: audits and formal verification'],
    remove: [RESEARCH],
  },
  // Mute.
  'mute "no more X"': {
    said: ['No more memecoin stuff please'],
    clues: READER,
    mute: ['memecoin'],
    reply: /^Stop showing: memecoin\./,
  },
  'mute "No X"': {
    said: ['No Solana'],
    clues: READER,
    mute: ['Solana'],
    reply: /^Stop showing: Solana\./,
  },
  'mute "I don\'t want X"': {
    said: ["I don't want to see NFT drops anymore"],
    mute: ['NFT drops'],
  },
  'mute "hide X" and "I am sick of X"': {
    said: ['hide airdrop farming', "I'm sick of price predictions"],
    mute: ['airdrop farming', 'price predictions'],
  },
  'mute "stop showing me X" while a clue asks for it: the note, then "remove it"': {
    said: ['Stop showing me Solana', 'remove it'],
    clues: ['I trade on Solana', MEV],
    mute: ['Solana'],
    remove: ['I trade on Solana'],
  },
  'mute a disliked story: "no more like this"': {
    said: ['No more like this.'],
    story: EIGENLAYER,
    feedback: 'disliked',
    mute: ['EigenLayer'],
  },
  'mute what missed the mark on a disliked story': {
    said: ['The restaking angle'],
    story: EIGENLAYER,
    feedback: 'disliked',
    clues: [MEV],
    mute: ['restaking angle'],
  },
  'not interested in a topic no clue has: mute': {
    said: ["I'm not interested in governance"],
    clues: [MEV],
    mute: ['governance'],
  },
  // Less of, more of.
  'less about Y': {
    said: ['less about NFTs'],
    mute: ['NFTs'],
    reply: /^Less of: NFTs\./,
  },
  'fewer X stories': {
    said: ['Fewer Bitcoin ETF stories'],
    mute: ['Bitcoin ETF'],
  },
  'more on X': {
    said: ['more on restaking please'],
    clues: [MEV],
    add: ['I want more on restaking'],
    reply: /^More of: restaking\./,
  },
  'more of a part of a clue gets a clue of its own': {
    said: ['I want more about oracle risk'],
    clues: ['I care about liquidation mechanics and oracle risk'],
    add: ['I want more on oracle risk'],
  },
  'more like a liked story': {
    said: ['More like this, please!'],
    story: EIGENLAYER,
    feedback: 'liked',
    clues: [MEV],
    add: ['I follow EigenLayer', 'I follow AVSs'],
    reply: /^Added: EigenLayer and AVSs\./,
  },
  'a first-person addition in feedback keeps every current clue': {
    said: ['I also follow zero-knowledge rollups.'],
    story: EIGENLAYER,
    feedback: 'disliked',
    clues: [LENDING, MEV],
    add: ['I follow zero-knowledge rollups'],
    reply: /^Added: zero-knowledge rollups\./,
  },
  '"more like this" without a story asks what the reader means': {
    said: ['More like this, please!'],
    clues: [MEV],
    reply: /^Sorry, I did not understand that\./,
  },
  '"Don\'t show me X stuff" mutes X': {
    said: ["Don't show me Solana stuff"],
    clues: [LENDING],
    mute: ['Solana'],
  },
  'less of one thing and more of another in one sentence': {
    said: ['Show me less NFT news and more DeFi'],
    clues: [MEV],
    add: ['I want more on DeFi'],
    mute: ['NFT'],
    reply: 'More of: DeFi. Less of: NFT. Choose Review my clues when you are done.',
  },
  'a negated first-person sentence is no clue: the assistant asks': {
    said: ['I am not a developer'],
    clues: [MEV],
    reply: /^Sorry, I did not understand that\./,
  },
  // Show again.
  'show a muted topic again': {
    said: ['Show me Solana again'],
    mutes: ['Solana', 'DAO treasury'],
    unmute: ['Solana'],
    reply: /^Showing again: Solana\./,
  },
  'unmute what this conversation muted: nothing changes': {
    said: ['stop showing me Solana', 'actually unmute Solana'],
  },
  // Several requests in one message.
  'add and remove in one sentence': {
    said: ['Add restaking and remove the art one'],
    clues: [ART, MEV],
    add: ['I follow restaking'],
    remove: [ART],
  },
  'first-person addition and removal': {
    said: ['I run Solana validators. I am no longer into generative art.'],
    clues: [ART, MEV],
    add: ['I run Solana validators'],
    remove: [ART],
  },
  // What the assistant cannot tell.
  'gibberish asks one question and changes nothing': {
    said: ['asdf qwer'],
    clues: READER,
    reply: /^Sorry, I did not understand that\. [^?]*\?$/,
  },
  'a thanks changes nothing': {
    said: ['Add MEV', 'thanks!'],
    clues: [ART],
    add: ['I follow MEV'],
    reply: 'Glad to help. Choose Review my clues when you are done.',
  },
};

describe('the assistant understands edits, and the review proposes exactly them', () => {
  const exchanges = Object.values(CASES).reduce((n, c) => n + c.said.length, 0);
  it(`holds at least 40 exchanges (${exchanges})`, () => {
    expect(exchanges).toBeGreaterThanOrEqual(40);
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(name, () => {
      const clues = c.clues ?? [];
      const context: EditContext = {
        currentClues: clues,
        ...(c.mutes ? { currentMutes: c.mutes } : {}),
        ...(c.story ? { story: c.story } : {}),
        ...(c.feedback ? { feedback: c.feedback } : {}),
      };
      const transcript = converse(c.said, context);
      const replies = transcript.filter((m) => m.role === 'assistant').slice(1);
      for (const reply of replies) {
        expect(reply.content).not.toMatch(/what do you do in web3|which chains|what is your role/i);
        expect(reply.content).not.toMatch(/\bplease\b|\bI also\b|Noted/i);
        expect(reply.content.split('?').length - 1).toBeLessThanOrEqual(1);
      }
      if (c.reply !== undefined) {
        if (typeof c.reply === 'string') expect(replies.at(-1)?.content).toBe(c.reply);
        else expect(replies.at(-1)?.content).toMatch(c.reply);
      }
      const removed = c.remove ?? [];
      expect(editsFrom(transcript, context)).toEqual({
        cluesToBeAdded: c.add ?? [],
        cluesToBeRemoved: removed,
        cluesToRemain: clues.filter((clue) => !removed.includes(clue)),
        mutesToBeAdded: c.mute ?? [],
        mutesToBeRemoved: c.unmute ?? [],
      });
    });
  }
});
