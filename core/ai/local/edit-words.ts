// The words of a request to the assistant: contractions spelled out, politeness and hedges
// dropped ("please", "can you", "also"), a topic without "stories about" or "stuff", and words
// no reader means ("asdf qwer").
import { isKnown } from './phrases';

/** Contractions spelled out and typography made plain, so one pattern reads every spelling. */
export function plain(text: string): string {
  return text
    .replace(/[’‘]/g, "'")
    .replace(/\bI'm\b/gi, 'I am')
    .replace(/\bI'd\b/gi, 'I would')
    .replace(/\bI've\b/gi, 'I have')
    .replace(/\b(do|does|did)n'?t\b/gi, '$1 not')
    .replace(/\bwon'?t\b/gi, 'will not')
    .replace(/\bcan'?t\b/gi, 'cannot')
    .replace(/\bwanna\b/gi, 'want to')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Politeness and fillers around a request: "please", "can you", "I'd like to", "also". */
const LEAD =
  /^(?:please|pls|plz|kindly|also|and|but|so|then|now|ok|okay|oh|hey|hi|hello|well|alright|actually|ah|um|uh|hmm|could you(?: please)?|can you(?: please)?|would you(?: please)?|will you|you can|go ahead and|feel free to|i would like you to|i want you to|i need you to|i would like to|i want to|i need to|i would love to|let us|let's|i think)\b[,!]?\s*/i;
const TAIL =
  /[,\s]*\b(?:please|pls|plz|thanks|thank you|thx|too|as well|also|for me|if you can|if possible|if you could)$/i;
/** Hedges inside a first-person sentence, dropped from the clue ("I also care about"). */
export const HEDGES =
  /\b(also|mostly|mainly|really|primarily|currently|actually|still|definitely|particularly|especially|now)\s+/gi;

export function tidy(clause: string): string {
  let text = plain(clause).replace(/^[\s,;:–-]+|[\s.!?,;:]+$/g, '');
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(LEAD, '').replace(TAIL, '').trim();
  }
  return text;
}

/** What a topic is called, without "stories about", "the", "stuff" or "in my feed". */
const TOPIC_LEAD =
  /^(?:the|a|an|any|all|some|those|these|more|my|of|about|on|with|around|regarding|covering|anything|everything|stuff|things|stories|story|news|articles|posts|content|coverage|updates|pieces|items|seeing|reading|getting|hearing)\b\s*/i;
const TOPIC_TAIL =
  /\s*(?:\b(?:stories|story|news|articles|posts|content|stuff|things|pieces|coverage|updates|items|topics|any ?more|again|too|as well|also|please|for me|(?:in|from|on|to|into|off) (?:my|the) (?:feed|clues|clue list|list|interests))|-related|\brelated)$/i;

export function topicOf(text: string): string {
  let topic = plain(text).replace(/^["“]|["”.!?,;:]+$/g, '');
  for (let before = ''; before !== topic;) {
    before = topic;
    topic = topic.replace(TOPIC_LEAD, '').replace(TOPIC_TAIL, '').trim();
  }
  // "Liquidation bots" -> "liquidation bots"; a name ("Solana", "DAO") keeps its capitals.
  const first = topic.split(' ')[0] ?? '';
  return /^[A-Z][a-z]+$/.test(first) && isKnown(first.toLowerCase())
    ? topic[0]!.toLowerCase() + topic.slice(1)
    : topic;
}

/** A list of topics as separate topics: "Solana and DAO treasury stories" -> two. */
export const topicsOf = (text: string) =>
  text
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor|&)\s+/i)
    .map(topicOf)
    .filter(Boolean);

const KEYBOARD = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/** A word no reader means: a run of keys ("asdf"), no vowel in a long word, a letter thrice. */
function mashed(word: string): boolean {
  if (isKnown(word.toLowerCase()) || /[A-Z0-9]/.test(word)) return false;
  const lower = word.toLowerCase();
  const run = KEYBOARD.some((row) =>
    [...lower].some((_, i) => i + 4 <= lower.length && row.includes(lower.slice(i, i + 4))),
  );
  return run || (!/[aeiouy]/.test(lower) && lower.length > 3) || /(.)\1\1/.test(lower);
}
export const isGibberish = (text: string) => (text.match(/[A-Za-z0-9]+/g) ?? ['']).every(mashed);
