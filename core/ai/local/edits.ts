// The local assistant in a conversation about changing clues (change_clues and feedback on a
// story): it reads what a reader asks in the common phrasings (add, remove, replace, keep or drop
// part of a clue, stop showing, less of, more of, show again), says back what it understood in
// clean words ("Added: MEV and liquidation bots."), and asks one question when it cannot tell.
// It never interviews: that is onboarding's (chat.ts). The same reading, folded over the whole
// conversation, is the clues review: clues to add, remove and keep, and topics to mute or unmute.
import type { ClueChanges } from '../tasks';
import type { ChatMessage, Story } from '../types';
import { addressed, listed, saysNothing, storyClues } from './chat';
import {
  keepingOnly,
  likeness,
  listOf,
  reframed,
  stemsOf,
  swappingPart,
  withoutPart,
} from './clue-parts';
import { HEDGES, isGibberish, plain, tidy, topicOf, topicsOf } from './edit-words';
import type { ItemSentence } from 'wink-nlp';
import { wink } from './text';

/** What the conversation is about: the reader's clues and mutes, and the story of a feedback. */
export type EditContext = {
  currentClues: string[];
  /** Undefined when the caller does not know them: an unmute is then proposed as said. */
  currentMutes?: string[];
  story?: Story;
  feedback?: 'liked' | 'disliked';
};

/** What the conversation has settled so far, and the clue last spoken of ("remove it"). */
type State = { clues: string[]; mutes: string[]; unmuted: string[]; last?: string };

/** One thing understood, as the reply says it back. */
type Heard =
  | { kind: 'added'; said: string }
  | { kind: 'more'; said: string }
  | { kind: 'known'; said: string }
  | { kind: 'removed'; clue: string }
  | { kind: 'changed'; from: string; to: string }
  | { kind: 'muted'; topic: string }
  | { kind: 'less'; topic: string }
  | { kind: 'unmuted'; topic: string }
  | { kind: 'note'; text: string };

type Reading = { heard: Heard[]; question?: string };

const QUESTIONS = {
  help:
    'Sorry, I did not understand that. What should I add, remove or stop showing you, for ' +
    'example “Add MEV” or “Stop showing me Solana stories”?',
  which: (verb: string, clues: string[]) =>
    `Which clue should I ${verb}: ${listed(
      clues.map((c) => `“${c}”`),
      'or',
    )}?`,
  muteInstead: (topic: string) =>
    `None of your clues mentions ${topic}. Should I stop showing you stories on “${topic}” instead?`,
  mute: 'What should I stop showing you?',
};
const ASKED_WHICH = /^Which clue should I (remove|change|keep): /;
const ASKED_MUTE = /Should I stop showing you stories on “([^”]+)” instead\?$/;
const YES = /^(yes|yeah|yep|yup|sure|ok|okay|please do|do it|go ahead|correct|right|exactly)\b/i;
const NO = /^(no|nope|nah|don'?t|do not|never mind|leave it)\b/i;

const DONE = 'Choose Review my clues when you are done.';

const PRONOUN = /^(?:it|that|this|this one|that one|them|those|these|that clue|this clue)$/i;
const LIKE_THIS =
  /^(?:(?:stories|articles|news|ones|pieces|posts|content|anything|things|stuff) )?(?:like (?:this|that|it|these|those)(?: one)?|of (?:this|that) kind|this|that|these|those|it)$/i;
const ALL = /^(?:all|everything|all of them|all my clues|every clue|all clues|all of it)$/i;
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];

/** The story's own topic (its first key phrase), what "no more like this" is about. */
const storyTopic = (story: Story | undefined) =>
  story ? storyClues(story, [], 1)[0]?.replace(/^I follow /, '') : undefined;

// ---- Pointing at clues ---------------------------------------------------------------------

type Pointed = { clues: string[]; whole: boolean };

/**
 * The clues a reader's words point at: a pronoun (the clue last spoken of), "all", an ordinal
 * ("the second one"), or the clues that share most of their words; `whole` when they said "the
 * X one" or "clue", meaning the clue rather than a part of it.
 */
function pointAt(words: string, state: State): Pointed {
  const text = plain(words)
    .replace(/^["“]|["”]$/g, '')
    .trim();
  if (PRONOUN.test(text)) {
    if (state.last) return { clues: [state.last], whole: true };
    return { clues: state.clues.length === 1 ? state.clues : [], whole: true };
  }
  if (ALL.test(text)) return { clues: [...state.clues], whole: true };
  const ordinal =
    /^(?:the )?(first|second|third|fourth|fifth|sixth|last|\d)(?:st|nd|rd|th)?(?: one| clue)?$/i.exec(
      text,
    ) ?? /^(?:clue|number|#) ?(\d)$/i.exec(text);
  if (ordinal) {
    const word = ordinal[1]!.toLowerCase();
    const at =
      word === 'last'
        ? state.clues.length - 1
        : /\d/.test(word)
          ? Number(word) - 1
          : ORDINALS.indexOf(word);
    const clue = state.clues[at];
    return { clues: clue ? [clue] : [], whole: true };
  }
  const whole = /\b(one|clue)$/i.test(text);
  const named = text
    .replace(/^(?:the|my|that|this|your)\s+/i, '')
    .replace(/\s+(?:one|clue|part|bit|piece|thing|stuff)$/i, '');
  const words_ = stemsOf(named);
  if (words_.size === 0) return { clues: [], whole };
  const scored = state.clues.map((clue) => {
    const own = stemsOf(clue);
    return { clue, score: [...words_].filter((s) => own.has(s)).length / words_.size };
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  return {
    clues: best >= 0.5 ? scored.filter((s) => s.score === best).map((s) => s.clue) : [],
    whole,
  };
}

// ---- Changing the state --------------------------------------------------------------------

const sameTopic = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether a clue's topic is already in the reader's clues (most of its words in one clue). */
function coveredBy(clues: string[], clue: string): string | undefined {
  const own = stemsOf(clue);
  return clues.find((other) => {
    const theirs = stemsOf(other);
    const shared = [...own].filter((s) => theirs.has(s)).length;
    return own.size > 0 && shared / Math.min(own.size, theirs.size) >= 0.8;
  });
}

function add(state: State, clue: string, said: string): Heard {
  const known = coveredBy(state.clues, clue);
  if (known) {
    state.last = known;
    return { kind: 'known', said };
  }
  state.clues.push(clue);
  state.last = clue;
  return { kind: 'added', said };
}

function remove(state: State, clue: string): Heard {
  state.clues = state.clues.filter((c) => c !== clue);
  state.last = clue;
  return { kind: 'removed', clue };
}

function change(state: State, from: string, to: string): Heard {
  state.clues = state.clues.map((c) => (c === from ? to : c));
  state.last = to;
  return { kind: 'changed', from, to };
}

function mute(state: State, topic: string, less: boolean): Heard[] {
  state.unmuted = state.unmuted.filter((t) => !sameTopic(t, topic));
  if (!state.mutes.some((t) => sameTopic(t, topic))) state.mutes.push(topic);
  const heard: Heard[] = [{ kind: less ? 'less' : 'muted', topic }];
  // A clue that is about the muted topic and nothing else keeps asking for it.
  const asking = state.clues.find((clue) => {
    const own = stemsOf(clue);
    return [...stemsOf(topic)].every((s) => own.has(s)) && likeness(stemsOf(topic), own) >= 0.5;
  });
  if (asking) {
    state.last = asking;
    heard.push({
      kind: 'note',
      text: `Your clue “${asking}” still asks for ${topic}: say “remove it” to drop it.`,
    });
  }
  return heard;
}

function unmute(state: State, topic: string, context: EditContext): Heard {
  const muted = state.mutes.find((t) => sameTopic(t, topic));
  if (muted) state.mutes = state.mutes.filter((t) => t !== muted);
  else if (context.currentMutes === undefined) state.unmuted.push(topic);
  else return { kind: 'note', text: `You were not muting ${topic}.` };
  return { kind: 'unmuted', topic: muted ?? topic };
}

// ---- Reading a request ---------------------------------------------------------------------

/** The clue a reader's addition makes: theirs when first-person, else "I follow <topic>". */
function clueOf(text: string): { clue: string; said: string } | undefined {
  if (/^I\b/.test(text)) return firstPerson(text);
  const topic = topicOf(text);
  return topic && !isGibberish(topic) ? { clue: `I follow ${topic}`, said: topic } : undefined;
}

const RELATION =
  /^I (?:(am (?:interested in|into|keen on|curious about|focused on|passionate about))|(care about|follow|like|love|enjoy|read about|track|watch|want to follow|want to read about|want news (?:on|about)|want stories (?:on|about)))\s+(.+)$/i;

/** A first-person sentence as a clue ("I also care about X" -> "I care about X"), or none. */
function firstPerson(text: string): { clue: string; said: string } | undefined {
  const sentence = text.replace(HEDGES, '').replace(/\s+/g, ' ').trim();
  const relation = RELATION.exec(sentence);
  if (relation) {
    const topic = topicOf(relation[3]!);
    if (!topic || isGibberish(topic)) return undefined;
    const verb = (relation[1] ?? relation[2]!).toLowerCase();
    return {
      clue: /^want (?:news|stories)/.test(verb) ? `I follow ${topic}` : `I ${verb} ${topic}`,
      said: topic,
    };
  }
  const want = /^I (?:would like|want|need)\s+(.+)$/i.exec(sentence);
  if (want) return clueOf(want[1]!);
  if (isGibberish(sentence.slice(2))) return undefined;
  return { clue: sentence, said: addressed(sentence) };
}

type Reader = (match: RegExpExecArray, state: State, context: EditContext) => Reading;

const heard = (...list: Heard[]): Reading => ({ heard: list });
const asking = (question: string): Reading => ({ heard: [], question });

/**
 * The reader wants what their words name gone: the clue they point at, or the part of it they
 * name ("the formal verification part"). Said outright ("remove X") of something no clue
 * mentions, it asks whether to mute it; said as disinterest ("not into X"), it mutes it.
 */
function dropping(words: string, state: State, context: EditContext, outright: boolean): Reading {
  const part = /\b(?:part|bit|piece)$/i.test(words.trim());
  // "the security focus from the lending one": the part, in the clue named after it.
  const inClue = /^(.+?) (?:from|in|of|out of) ((?:the|my|that) .+ (?:one|clue))$/i.exec(words);
  if (inClue) {
    const pointed = pointAt(inClue[2]!, state);
    if (pointed.clues.length > 1) return asking(QUESTIONS.which('change', pointed.clues));
    const clue = pointed.clues[0];
    const rest = clue && withoutPart(clue, inClue[1]!.replace(/^(?:the|that)\s+/i, ''));
    if (clue && rest) return heard(change(state, clue, rest));
  }
  if (outright && LIKE_THIS.test(words) && !PRONOUN.test(words)) {
    return muting(words, state, context, false);
  }
  const pointed = pointAt(words, state);
  if (pointed.clues.length > 1 && !ALL.test(plain(words))) {
    // One of them may hold the named part: "drop MEV" with MEV a part of only one clue.
    const holders = pointed.clues.filter((clue) => withoutPart(clue, words) !== undefined);
    if (holders.length !== 1 || pointed.whole) {
      return asking(QUESTIONS.which(outright ? 'remove' : 'change', pointed.clues));
    }
    pointed.clues = holders;
  }
  if (pointed.clues.length === 0) {
    if (PRONOUN.test(plain(words))) {
      return state.clues.length === 0
        ? asking(QUESTIONS.help)
        : asking(QUESTIONS.which('remove', state.clues));
    }
    const topics = topicsOf(words);
    if (topics.length === 0 || topics.every(isGibberish)) return asking(QUESTIONS.help);
    if (outright) return asking(QUESTIONS.muteInstead(topics.join(' and ')));
    return heard(...topics.flatMap((topic) => mute(state, topic, false)));
  }
  if (pointed.clues.length > 1) return heard(...pointed.clues.map((c) => remove(state, c)));
  const clue = pointed.clues[0]!;
  // "Forget it" of a clue already gone: said back again, nothing else to do.
  if (!state.clues.includes(clue)) return heard({ kind: 'removed', clue });
  const rest =
    pointed.whole && !part
      ? undefined
      : withoutPart(clue, words.replace(/\s+(?:part|bit|piece)$/i, ''));
  return heard(rest ? change(state, clue, rest) : remove(state, clue));
}

function muting(words: string, state: State, context: EditContext, less: boolean): Reading {
  if (LIKE_THIS.test(plain(words))) {
    const topic = storyTopic(context.story);
    return topic ? heard(...mute(state, topic, less)) : asking(QUESTIONS.mute);
  }
  const topics = topicsOf(words);
  if (topics.length === 0) return asking(QUESTIONS.mute);
  if (topics.every(isGibberish)) return asking(QUESTIONS.help);
  return heard(...topics.flatMap((topic) => mute(state, topic, less)));
}

function adding(words: string, state: State): Reading {
  const made = clueOf(words);
  return made ? heard(add(state, made.clue, made.said)) : asking(QUESTIONS.help);
}

/** "Instead of X, Y", "replace X with Y": X's clue or part swapped for Y; X muted if no clue. */
function replacing(from: string, to: string, state: State, context: EditContext): Reading {
  const target = to.replace(
    /^(?:add|show me|give me|follow|I want|I would like|more on|more)\s+/i,
    '',
  );
  const pointed = pointAt(from, state);
  if (pointed.clues.length > 1) return asking(QUESTIONS.which('change', pointed.clues));
  const clue = pointed.clues[0];
  if (!clue) {
    const muted = muting(from, state, context, false);
    const added = adding(target, state);
    return { heard: [...added.heard, ...muted.heard], question: added.question ?? muted.question };
  }
  const relation = RELATION.exec(target.replace(HEDGES, ''));
  if (relation) return replacing(from, relation[3]!, state, context);
  if (/^I\b/.test(target)) {
    const made = firstPerson(target);
    if (!made) return asking(QUESTIONS.help);
    return heard(change(state, clue, made.clue));
  }
  const topic = topicOf(target);
  if (!topic || isGibberish(topic)) return asking(QUESTIONS.help);
  const named = from.replace(/^(?:the|my)\s+/i, '').replace(/\s+(?:one|clue|part)$/i, '');
  return heard(change(state, clue, swappingPart(clue, named, topic) ?? reframed(clue, topic)));
}

/** "Keep only audits", "I only care about X": the named items of one clue, or the named clues. */
function keeping(words: string, state: State): Reading {
  const items = topicsOf(words);
  const rewrites = state.clues
    .map((clue) => ({ clue, kept: keepingOnly(clue, items) }))
    .filter((r): r is { clue: string; kept: string } => r.kept !== undefined);
  if (rewrites.length === 1) return heard(change(state, rewrites[0]!.clue, rewrites[0]!.kept));
  const pointed = pointAt(words, state);
  if (pointed.clues.length > 0 && pointed.clues.length < state.clues.length) {
    const others = state.clues.filter((clue) => !pointed.clues.includes(clue));
    return heard(...others.map((clue) => remove(state, clue)));
  }
  return pointed.clues.length > 0 ? heard() : adding(words, state);
}

/** "More like this" brings the story's own topics; "more on X" a clue of its own for X. */
function more(words: string, state: State, context: EditContext): Reading {
  if (LIKE_THIS.test(plain(words))) {
    if (!context.story) return asking(QUESTIONS.help);
    const clues = storyClues(context.story, state.clues);
    return heard(...clues.map((clue) => add(state, clue, clue.replace(/^I follow /, ''))));
  }
  const topic = topicOf(words);
  if (!topic || isGibberish(topic)) return asking(QUESTIONS.help);
  const clue = `I want more on ${topic}`;
  // Already a clue of its own: nothing to add; a part of a broader clue gets a clue of its own.
  const own = state.clues.find(
    (c) => likeness(stemsOf(topic), stemsOf(listOf(c).items.join(' '))) === 1,
  );
  if (own || state.clues.includes(clue)) return heard({ kind: 'known', said: topic });
  state.clues.push(clue);
  state.last = clue;
  return heard({ kind: 'more', said: topic });
}

/** The reader's phrasings, tried in order on a tidied clause. */
const READERS: [RegExp, Reader][] = [
  // Replace: "instead of X, Y", "replace X with Y", "Y instead of X", "not X but Y".
  [/^(?:instead of|rather than) (.+?), (.+)$/i, (m, s, c) => replacing(m[1]!, m[2]!, s, c)],
  [
    /^(?:replace|swap|switch|change|exchange|substitute) (.+?) (?:with|for|to|into|by) (.+)$/i,
    (m, s, c) => replacing(m[1]!, m[2]!, s, c),
  ],
  [/^not (.+?),? but (.+)$/i, (m, s, c) => replacing(m[1]!, m[2]!, s, c)],
  [/^(.+?) (?:instead of|rather than) (.+)$/i, (m, s, c) => replacing(m[2]!, m[1]!, s, c)],
  // Keep part of a clue, or some clues only.
  [/^(?:keep|leave) (?:only|just) (.+)$/i, (m, s) => keeping(m[1]!, s)],
  [/^(?:only|just) keep (.+)$/i, (m, s) => keeping(m[1]!, s)],
  [
    /^I (?:only|just) (?:care about|want|follow|need|want to follow) (.+)$/i,
    (m, s) => keeping(m[1]!, s),
  ],
  [/^I care (?:only|just) about (.+)$/i, (m, s) => keeping(m[1]!, s)],
  // Show again.
  [
    /^(?:unmute|unhide|unblock|un-mute|stop (?:hiding|muting|blocking)) (.+)$/i,
    (m, s, c) => heard(...topicsOf(m[1]!).map((t) => unmute(s, t, c))),
  ],
  [
    /^(?:show|give|send) me (.+?) (?:again|back)$/i,
    (m, s, c) => heard(...topicsOf(m[1]!).map((t) => unmute(s, t, c))),
  ],
  [
    /^(?:bring back|I want back) (.+)$/i,
    (m, s, c) => heard(...topicsOf(m[1]!).map((t) => unmute(s, t, c))),
  ],
  [
    /^(?:I (?:would like|want) )?(.+?) back$/i,
    (m, s, c) => heard(...topicsOf(m[1]!).map((t) => unmute(s, t, c))),
  ],
  // Stop showing.
  [
    /^(?:stop|quit|no longer) (?:showing|sending|giving|recommending|serving|suggesting|including|featuring|pushing)(?: me| us)? (.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, false),
  ],
  [/^stop (?:seeing|getting|reading) (.+)$/i, (m, s, c) => muting(m[1]!, s, c, false)],
  [/^no more (.+)$/i, (m, s, c) => muting(m[1]!, s, c, false)],
  // "No Solana", "no memecoins please": but not "no, I meant ..." or "no thanks".
  [
    /^no (?![,.!]|I\b|longer\b|thanks?\b|worries\b|problem\b|idea\b|need\b|change\b|way\b)(.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, false),
  ],
  [
    /^(?:I )?(?:do not|never) (?:show|send|give|recommend)(?: me| us)? (.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, false),
  ],
  [
    /^(?:I )?(?:do not|never|will not) (?:want|need|like)(?: to (?:see|read|get|hear about))?(?: any ?more| any)? (.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, false),
  ],
  [
    /^(?:hide|mute|block|filter out|ban|exclude|silence|suppress|avoid) (.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, false),
  ],
  [/^I am (?:sick|tired) of (.+)$/i, (m, s, c) => muting(m[1]!, s, c, false)],
  [/^(?:enough|too much) (?:of |with |about |on )?(.+)$/i, (m, s, c) => muting(m[1]!, s, c, false)],
  [
    /^(.+?) (?:is|are) (?:noise|spam|irrelevant|not relevant|not for me|boring)$/i,
    (m, s, c) => muting(m[1]!, s, c, false),
  ],
  [/^I (?:hate|dislike|cannot stand) (.+)$/i, (m, s, c) => muting(m[1]!, s, c, false)],
  // Less of.
  [
    /^(?:show me |give me |I want |I would like )?(?:less|fewer) (?:of |about |on |around )?(.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, true),
  ],
  [/^not so (?:much|many) (.+)$/i, (m, s, c) => muting(m[1]!, s, c, true)],
  [
    /^(?:tone down|cut down on|cut back on|reduce|lower) (.+)$/i,
    (m, s, c) => muting(m[1]!, s, c, true),
  ],
  // Remove, or drop part of a clue.
  [
    /^(?:remove|delete|drop|forget(?: about)?|get rid of|take out|take off|scrap|ditch|lose|cut|erase|clear|discard|stop following|unfollow|skip) (.+?)(?: (?:from|off|out of) (?:my|the) (?:clues|clue list|list|feed))?$/i,
    (m, s, c) => dropping(m[1]!, s, c, true),
  ],
  [
    /^(?:I )?(?:am )?no longer (?:into |interested in |care about |caring about |follow |following |in |working on |work on )?(.+)$/i,
    (m, s, c) => dropping(m[1]!, s, c, false),
  ],
  [
    /^I (?:have )?stopped (?:caring about|following|working on|doing|building|researching|investing in|collecting|trading) (.+)$/i,
    (m, s, c) => dropping(m[1]!, s, c, false),
  ],
  [
    /^(?:I )?(?:am )?not (?:interested in|into) (.+?)(?: any ?more)?$/i,
    (m, s, c) => dropping(m[1]!, s, c, false),
  ],
  [
    /^I do not (?:care (?:about|for)|follow|\w+) (.+?)(?: any ?more)?$/i,
    (m, s, c) => dropping(m[1]!, s, c, false),
  ],
  [/^(.+?) (?:is|are) no longer relevant$/i, (m, s, c) => dropping(m[1]!, s, c, false)],
  [/^not (.+)$/i, (m, s, c) => dropping(m[1]!, s, c, false)],
  // More of.
  [
    /^(?:more like (?:this|that|it)|similar (?:stories|articles|ones|news))(?: one| please)?$/i,
    (_, s, c) => more('like this', s, c),
  ],
  [
    /^(?:show me |give me |I want |I would like |I need |I want to see |see )?more (?:of |on |about |around |regarding |covering |from )?(.+)$/i,
    (m, s, c) => more(m[1]!, s, c),
  ],
  // Add.
  [
    /^(?:add|include|track|cover|watch|put in|start following|follow|subscribe to|add in|plus) (.+?)(?: (?:to|in|into|on) (?:my|the) (?:clues|clue list|list|feed|interests))?$/i,
    (m, s) => adding(m[1]!, s),
  ],
  [/^I\b.*/i, (m, s) => (NEGATED.test(m[0]) ? negated(m[0], s) : adding(m[0], s))],
];

const NEGATED = /\b(?:not|never|no longer)\b/i;

/** "I am not a developer": no clue; a clue it names goes, else the assistant asks. */
function negated(text: string, state: State): Reading {
  const pointed = pointAt(text.replace(/^I (?:\w+ )?(?:not|never|no longer)\s+/i, ''), state);
  return pointed.clues.length === 1
    ? heard(remove(state, pointed.clues[0]!))
    : asking(QUESTIONS.help);
}

/** A clause nobody's phrasing matched: a topic to add (or, on a disliked story, to mute). */
function fragment(text: string, state: State, context: EditContext): Reading {
  if (/\?$/.test(text) || /^(what|how|why|who|when|where|can|could|do|does|is|are)\b/i.test(text)) {
    return asking(QUESTIONS.help);
  }
  const clause = tidy(text);
  if (!clause || saysNothing(clause)) return heard();
  if (isGibberish(clause)) return asking(QUESTIONS.help);
  return context.feedback === 'disliked'
    ? muting(clause, state, context, false)
    : adding(clause, state);
}

function readClause(raw: string, state: State, context: EditContext): Reading {
  const clause = tidy(raw);
  for (const [pattern, read] of READERS) {
    const match = pattern.exec(clause);
    if (match) return read(match, state, context);
  }
  return fragment(raw, state, context);
}

/** Where a new request starts inside a sentence ("..., I mostly care about ...", "and add X"). */
const CLAUSE_START =
  /^(?:(?:and|but|then|also|so|plus|please|pls|can you|could you|would you|oh and)\s+)*(?:I\b|add\b|remove\b|drop\b|delete\b|stop\b|no more\b|keep\b|replace\b|swap\b|change\b|mute\b|hide\b|show me\b|give me\b|more\b|less\b|fewer\b|forget\b|include\b|unmute\b|get rid\b|take out\b|do not\b|don't\b|not\b|only\b|bring back\b|follow\b|skip\b|block\b|enough\b)/i;

/** A message's requests: its sentences, cut where a new request starts. */
function clausesOf(message: string): string[] {
  const sentences: string[] = [];
  wink()
    .readDoc(message)
    .sentences()
    .each((sentence: ItemSentence) => {
      sentences.push(sentence.out());
    });
  const clauses: string[] = [];
  for (const sentence of sentences) {
    const pieces = sentence.split(/(;\s*|,\s*|\s+(?=(?:and|but|then)\s))/i);
    let current = '';
    for (let i = 0; i < pieces.length; i += 2) {
      const piece = pieces[i]!;
      const startsNew = CLAUSE_START.test(piece.replace(/^(?:and|but|then)\s+/i, '').trim());
      const glued =
        /^(?:but )?(?:instead of|rather than)\b/i.test(current) && !current.includes(',');
      const hard = (pieces[i - 1] ?? '').startsWith(';');
      if (current && (hard || (startsNew && !glued))) {
        clauses.push(current);
        current = piece;
      } else current += (pieces[i - 1] ?? '') + piece;
    }
    if (current.trim()) clauses.push(current);
  }
  return clauses.map((c) => c.trim()).filter(Boolean);
}

/** An answer to the assistant's own last question ("the second one", "yes"), if it is one. */
function answerTo(asked: string, message: string, state: State, context: EditContext) {
  const text = tidy(message);
  const mutable = ASKED_MUTE.exec(asked);
  if (mutable) {
    if (YES.test(text)) return muting(mutable[1]!, state, context, false);
    if (NO.test(text)) return heard({ kind: 'note', text: 'Alright, I left that as it was.' });
    return undefined;
  }
  const which = ASKED_WHICH.exec(asked);
  if (!which || READERS.slice(0, -1).some(([pattern]) => pattern.test(text))) return undefined;
  const pointed = pointAt(text, state);
  if (pointed.clues.length !== 1) return undefined;
  return which[1] === 'remove' ? heard(remove(state, pointed.clues[0]!)) : undefined;
}

function read(message: string, asked: string | undefined, state: State, context: EditContext) {
  const answer = asked === undefined ? undefined : answerTo(asked, message, state, context);
  if (answer) return answer;
  const reading: Reading = { heard: [] };
  for (const clause of clausesOf(message)) {
    const { heard: found, question } = readClause(clause, state, context);
    reading.heard.push(...found);
    reading.question ??= question;
  }
  return reading;
}

/** The conversation read in order; the reading of the last message is the one to say back. */
function fold(messages: ChatMessage[], context: EditContext) {
  const state: State = {
    clues: [...context.currentClues],
    mutes: [...(context.currentMutes ?? [])],
    unmuted: [],
  };
  let last: Reading = { heard: [] };
  let asked: string | undefined;
  for (const message of messages) {
    if (message.role === 'assistant') asked = message.content;
    if (message.role !== 'user') continue;
    last = read(message.content, asked, state, context);
    asked = undefined;
  }
  return { state, last };
}

// ---- Saying it back ------------------------------------------------------------------------

const quoted = (clue: string) => `“${clue}”`;
/** Items that hold "and" themselves are listed with semicolons, so each stays whole. */
const items = (list: string[]) =>
  list.some((item) => /\band\b|,/.test(item)) ? list.join('; ') : listed(list);

function sayBack(heard: Heard[]): string[] {
  const of = <K extends Heard['kind']>(kind: K) =>
    heard.filter((h): h is Extract<Heard, { kind: K }> => h.kind === kind);
  const lines: string[] = [];
  const said = (label: string, list: string[]) => {
    if (list.length > 0) lines.push(`${label}: ${items(list)}.`);
  };
  said(
    'Added',
    of('added').map((h) => h.said),
  );
  said(
    'More of',
    of('more').map((h) => h.said),
  );
  for (const { from, to } of of('changed'))
    lines.push(`Changed: ${quoted(from)} to ${quoted(to)}.`);
  said(
    'Removed',
    of('removed').map((h) => quoted(h.clue)),
  );
  said(
    'Stop showing',
    of('muted').map((h) => h.topic),
  );
  said(
    'Less of',
    of('less').map((h) => h.topic),
  );
  said(
    'Showing again',
    of('unmuted').map((h) => h.topic),
  );
  said(
    'Already in your clues',
    of('known').map((h) => h.said),
  );
  lines.push(...of('note').map((h) => h.text));
  return lines;
}

/** The reply to the reader's last message: what it understood, and one question at most. */
export function editReply(messages: ChatMessage[], context: EditContext): string {
  const { last } = fold(messages, context);
  const lines = sayBack(last.heard);
  if (last.question) return [...lines, last.question].join(' ');
  if (lines.length === 0) return `Glad to help. ${DONE}`;
  return [...lines, DONE].join(' ');
}

/** The clues review: what the whole conversation asked, against the reader's clues and mutes. */
export function editsFrom(messages: ChatMessage[], context: EditContext): ClueChanges {
  const { state } = fold(messages, context);
  const current = context.currentClues;
  const mutes = context.currentMutes ?? [];
  const has = (list: string[], topic: string) => list.some((t) => sameTopic(t, topic));
  return {
    cluesToBeAdded: state.clues.filter((clue) => !current.includes(clue)),
    cluesToBeRemoved: current.filter((clue) => !state.clues.includes(clue)),
    cluesToRemain: current.filter((clue) => state.clues.includes(clue)),
    mutesToBeAdded: state.mutes.filter((topic) => !has(mutes, topic)),
    mutesToBeRemoved: [...mutes.filter((topic) => !has(state.mutes, topic)), ...state.unmuted],
  };
}
