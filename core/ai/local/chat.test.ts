import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../types';
import { cluesFrom, interviewReply, storyClues } from './chat';

const OPENING =
  'Hello, this is your Content Curator. What do you do in web3? Do you build, invest in, research or collect something?';

/** Plays the reader's answers against the interviewer; returns the transcript. */
function interview(answers: string[]): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'assistant', content: OPENING }];
  for (const answer of answers) {
    messages.push({ role: 'user', content: answer });
    messages.push({ role: 'assistant', content: interviewReply(messages) });
  }
  return messages;
}

describe('the local interviewer', () => {
  it('asks for what the reader has not said yet, in order, and never asks twice', () => {
    const transcript = interview([
      'I build lending protocols.',
      'Mostly Ethereum and Arbitrum.',
      'Smart contract engineer',
    ]);
    const replies = transcript.filter((m) => m.role === 'assistant').map((m) => m.content);
    expect(replies.slice(1)).toEqual([
      'Noted: you build lending protocols. Which chains or ecosystems matter most for that? For example Ethereum, Solana or an L2.',
      'Noted: you build lending protocols on Ethereum and Arbitrum. What is your role: developer, founder, researcher, investor, designer or another?',
      'Noted: you are a smart contract engineer. Thanks, that gives me a good picture. Is there anything else you follow closely? When you are done, finish the interview to see your clues.',
    ]);
  });

  it('says back the clue an answer made, never a list of its keywords', () => {
    const [, , reply] = interview([
      'I collect generative art and sit on a market making desk at my fund.',
    ]).map((m) => m.content);
    expect(reply).toBe(
      'Noted: you collect generative art and sit on a market making desk at your fund. Which chains or ecosystems matter most for that? For example Ethereum, Solana or an L2.',
    );
    expect(reply).not.toMatch(/Got it|, market, desk/);
  });

  it('ends the interview when the reader says that covers it, whatever was asked', () => {
    for (const closing of [
      'No, that covers it',
      "That's all.",
      'Nothing else, thanks',
      "I'm done",
      'No more, thank you!',
    ]) {
      const transcript = interview(['I build lending protocols on Arbitrum.', closing]);
      expect(transcript.at(-1)?.content, closing).toBe(
        "Thanks, that's all I need. Choose Complete Interview to see your clues.",
      );
      expect(cluesFrom(transcript, []).cluesToBeAdded, closing).toEqual([
        'I build lending protocols on Arbitrum',
      ]);
    }
  });

  it("takes a bare 'no' as the end only when asked for anything else", () => {
    const afterRole = interview(['I build lending protocols on Arbitrum.', 'No']);
    expect(afterRole.at(-3)?.content).toMatch(/What is your role/);
    expect(afterRole.at(-1)?.content).toMatch(/^Thanks, that gives me a good picture/);
    const afterMore = interview(['I build lending protocols on Arbitrum.', 'Founder', 'Nope']);
    expect(afterMore.at(-1)?.content).toBe(
      "Thanks, that's all I need. Choose Complete Interview to see your clues.",
    );
    expect(cluesFrom(afterMore, []).cluesToBeAdded).toEqual([
      'I build lending protocols on Arbitrum',
      'I am a founder',
    ]);
  });

  it('asks what exactly when the reader only names an activity, then moves on if unanswered', () => {
    const replies = interview(['I invest.', 'Not sure.'])
      .filter((m) => m.role === 'assistant')
      .map((m) => m.content);
    expect(replies[1]).toMatch(/^What exactly do you invest in\?/);
    expect(replies[2]).toMatch(/Which chains or ecosystems/);
  });

  it('opens with the activity question when nothing was said', () => {
    expect(interviewReply([])).toBe(
      'What do you do in web3? Do you build, invest in, research or collect something?',
    );
  });
});

describe('clues from an interview', () => {
  it('makes no clue of a refusal, a closing or a hedge, whichever question it answers', () => {
    const transcript = interview([
      'I research restaking protocols',
      "I'm not sure",
      'No, that covers it',
    ]);
    expect(cluesFrom(transcript, []).cluesToBeAdded).toEqual(['I research restaking protocols']);
  });

  it('keeps the capitals of names that start an answer', () => {
    const transcript: ChatMessage[] = [
      { role: 'assistant', content: OPENING },
      { role: 'user', content: 'I invest.' },
      { role: 'assistant', content: 'What exactly do you invest in? For example ...' },
      { role: 'user', content: 'DeFi yield vaults' },
    ];
    expect(cluesFrom(transcript, []).cluesToBeAdded).toEqual(['I invest in DeFi yield vaults']);
  });

  it('turns a scripted interview into specific clues, answers completing their questions', () => {
    const transcript = interview([
      'I build lending protocols.',
      'Mostly Ethereum and Arbitrum.',
      'Smart contract engineer',
      "I also collect generative art. That's it",
    ]);
    expect(cluesFrom(transcript, [])).toEqual({
      cluesToBeAdded: [
        'I build lending protocols on Ethereum and Arbitrum',
        'I am a smart contract engineer',
        'I collect generative art',
      ],
      cluesToBeRemoved: [],
      cluesToRemain: [],
      mutesToBeAdded: [],
      mutesToBeRemoved: [],
    });
  });

  it('completes a bare answer with the verb of the question it answers', () => {
    const transcript: ChatMessage[] = [
      { role: 'assistant', content: OPENING },
      { role: 'user', content: 'Researching stuff' },
      { role: 'assistant', content: 'What exactly do you research? For example ...' },
      { role: 'user', content: 'Restaking protocols and bridge security' },
    ];
    // The first answer names no topic, so it is no clue on its own.
    expect(cluesFrom(transcript, []).cluesToBeAdded).toEqual([
      'I research restaking protocols and bridge security',
    ]);
  });

  it('removes current clues the reader drops and does not add what they already have', () => {
    const changes = cluesFrom(
      [
        { role: 'user', content: 'I collect generative art. I stopped caring about NFT gaming.' },
        { role: 'user', content: 'Forget the gaming stuff, remove it.' },
      ],
      ['I collect generative art', 'I play NFT gaming titles'],
    );
    expect(changes).toEqual({
      cluesToBeAdded: [],
      cluesToBeRemoved: ['I play NFT gaming titles'],
      cluesToRemain: ['I collect generative art'],
      mutesToBeAdded: [],
      mutesToBeRemoved: [],
    });
  });
});

const EIGENLAYER = {
  title: 'EigenLayer slashing goes live for the first twelve AVSs',
  source: 'Blocknotes',
  summary: 'Operators must now opt in to operator sets with explicit slashing conditions.',
};

describe('clues from a story', () => {
  it("makes first-person clues of a story's key phrases, title first, in the order written", () => {
    expect(storyClues(EIGENLAYER, [], 3)).toEqual([
      'I follow EigenLayer',
      'I follow AVSs',
      'I follow operator sets',
    ]);
    expect(storyClues(EIGENLAYER, [])).toHaveLength(2);
  });

  it('keeps the capitals of names and drops those only a sentence start explains', () => {
    const clues = (title: string, summary: string) => storyClues({ title, summary }, [], 4);
    expect(
      clues(
        'Stablecoin supply on rollups overtakes Ethereum mainnet',
        'For the first time, more dollar stablecoins sit on layer 2 networks than on layer 1.',
      ),
    ).toEqual([
      'I follow stablecoin supply',
      'I follow Ethereum mainnet',
      'I follow dollar stablecoins',
    ]);
    expect(
      clues(
        'Uniswap v4 hooks audit contest finds two critical bugs',
        'Smart accounts paid out $310,000 to researchers on Tuesday.',
      ),
    ).toEqual([
      'I follow Uniswap v4',
      'I follow audit contest',
      'I follow critical bugs',
      'I follow smart accounts',
    ]);
    expect(
      clues('Lumen Labs raises $24 million to build a zero-knowledge co-processor', ''),
    ).toEqual(['I follow Lumen Labs', 'I follow zero-knowledge co-processor']);
  });

  it('never offers a clue the reader has, in any case, or one naming the same topic', () => {
    expect(storyClues(EIGENLAYER, ['I FOLLOW EIGENLAYER', 'I run AVSs on mainnet'])).toEqual([
      'I follow operator sets',
    ]);
  });
});
