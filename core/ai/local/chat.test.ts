import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../types';
import { cluesFrom, interviewReply } from './chat';

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
      'Got it: lending protocols. Which chains or ecosystems matter most for that? For example Ethereum, Solana or an L2.',
      'Got it: Ethereum, Arbitrum. What is your role: developer, founder, researcher, investor, designer or another?',
      'Got it: smart contract engineer. Thanks, that gives me a good picture. Is there anything else you follow closely? When you are done, finish the interview to see your clues.',
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
    });
  });
});
