// The chat's markup, one for the feed's side panel and the funnel's interview: a live log of
// bubbles named for who says them, and the reader's labelled message field with Send.
import { createElement, createRef } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChatLog, ChatMessageField } from './chat-log';
import { ChatStep } from './get-started/chat-step';

const messages = [
  { id: 'a', role: 'assistant' as const, bubbles: ['Hello.', 'What do you do in web3?'] },
  { id: 'b', role: 'user' as const, bubbles: ['I build lending pools'] },
];

const field = (props: Partial<Parameters<typeof ChatMessageField>[0]> = {}) =>
  renderToStaticMarkup(
    createElement(ChatMessageField, {
      text: '',
      onText: () => {},
      busy: false,
      sendDisabled: false,
      ...props,
    }),
  );

describe('the chat log', () => {
  it('is a live log of a list of bubbles, each named for who says it', () => {
    const html = renderToStaticMarkup(
      createElement(ChatLog, { messages, listRef: createRef<HTMLOListElement>() }),
    );
    expect(html).toBe(
      '<div class="chat-log" role="log" aria-live="polite" aria-label="Conversation">' +
        '<ol class="chat">' +
        '<li class="chat__bubble chat__bubble--assistant"><span class="visually-hidden">Curator: </span>Hello.</li>' +
        '<li class="chat__bubble chat__bubble--assistant"><span class="visually-hidden">Curator: </span>What do you do in web3?</li>' +
        '<li class="chat__bubble chat__bubble--user"><span class="visually-hidden">You: </span>I build lending pools</li>' +
        '</ol></div>',
    );
  });

  it('has a labelled message field, read-only while a message is on its way, and Send', () => {
    const html = field({ name: 'message', text: 'Hi', busy: true, sendDisabled: true });
    const id = /<label for="([^"]+)" class="visually-hidden">Your message<\/label>/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(
      `<textarea id="${id}" name="message" rows="2" maxLength="1000" readonly="" placeholder="Type here...">Hi</textarea>`,
    );
    expect(html).toContain('<button type="submit" class="button" disabled="">Send</button>');
    expect(field()).toContain('<button type="submit" class="button">Send</button>');
  });

  it("is the funnel interview's own markup", () => {
    const html = renderToStaticMarkup(
      createElement(ChatStep, {
        token: 't',
        chat: { threadId: 'thread', messages },
        focus: false,
        setChat: () => {},
        onClues: () => {},
        onError: () => {},
      }),
    );
    expect(html).toContain(
      renderToStaticMarkup(
        createElement(ChatLog, { messages, listRef: createRef<HTMLOListElement>() }),
      ),
    );
    // Send waits for a message: the field starts empty.
    expect(html.replace(/ id="[^"]+"| for="[^"]+"/g, '')).toContain(
      field({ sendDisabled: true }).replace(/ id="[^"]+"| for="[^"]+"/g, ''),
    );
  });
});
