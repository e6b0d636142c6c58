// The assistant (spec §4, §7; ADR 0022): the conversations themselves (conversation.ts), and the
// turns the reader's screens take in them, each one operation a route calls once (turns.ts).
export * from './conversation';
export * from './turns';
