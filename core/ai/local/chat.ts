// The local assistant: a deterministic interviewer. It cannot converse, but it walks a reader
// through describing themselves, echoing the topics it heard (keyphrases) and asking for more,
// and it reads the clues out of a conversation the way the clue review expects.
import type { ItemSentence } from 'wink-nlp';
import type { ChatMessage } from '../types';
import type { ClueChanges } from '../tasks';
import { keyphrases, terms, wink } from './text';

export function interviewReply(messages: ChatMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const topics = last ? keyphrases(last.content).slice(0, 3) : [];
  if (topics.length === 0) {
    return 'Tell me about your work or hobbies in web3: what do you build, trade, research or collect?';
  }
  return `Got it: ${topics.join(', ')}. Is there a chain, a protocol or a role you care about most? Say "done" when you are happy with your clues.`;
}

const REMOVAL = /\b(no longer|not interested|don'?t care|remove|stop|drop|forget)\b/i;

/** The reader's sentences as clues ("I ..."), kept as written; removals matched to current clues. */
export function cluesFrom(messages: ChatMessage[], currentClues: string[]): ClueChanges {
  const sentences: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    wink()
      .readDoc(message.content)
      .sentences()
      .each((sentence: ItemSentence) => {
        const text = sentence
          .out()
          .trim()
          .replace(/[.!?]+$/, '');
        if (terms(text).length > 0) sentences.push(text);
      });
  }
  const stemsOf = (text: string) => new Set(terms(text).map((t) => t.stem));
  const overlap = (a: Set<string>, b: Set<string>) =>
    [...a].filter((s) => b.has(s)).length / Math.max(1, Math.min(a.size, b.size));

  const removed = new Set<string>();
  const added: string[] = [];
  for (const sentence of sentences) {
    const stems = stemsOf(sentence);
    if (REMOVAL.test(sentence)) {
      for (const clue of currentClues) if (overlap(stems, stemsOf(clue)) >= 0.5) removed.add(clue);
      continue;
    }
    const known = [...currentClues, ...added].some((clue) => overlap(stems, stemsOf(clue)) >= 0.8);
    if (!known) added.push(/^i\b/i.test(sentence) ? sentence : `I am into ${sentence}`);
  }
  return {
    cluesToBeAdded: added,
    cluesToBeRemoved: [...removed],
    cluesToRemain: currentClues.filter((clue) => !removed.has(clue)),
  };
}
