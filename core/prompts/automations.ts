// The automations that send prompts to a model, the placeholders each may use (the spec's
// implementation info: placeholder and description pairs) and the default prompt each is seeded
// with. A prompt is the user message; the task's system message fixes the answer's shape.
export type Placeholder = { name: string; description: string; required: boolean };
export type Automation = {
  id: string;
  name: string;
  placeholders: Placeholder[];
  defaultTitle: string;
  defaultPrompt: string;
};

const p = (name: string, description: string, required = false): Placeholder => ({
  name,
  description,
  required,
});

const article = [
  p('title', "The article's title", true),
  p('summary', "The article's summary or first paragraph"),
  p('category', "The article's category, when the feed gives one"),
];

const RELEVANCE_PROMPT = `Reader's clues:
{clues}

Article
Title: {title}
Summary: {summary}

How relevant is this article to this reader? Match it against each clue.`;

export const AUTOMATIONS: Automation[] = [
  {
    id: 'scoring',
    name: 'Score unscored articles',
    placeholders: [
      ...article,
      p('audience', "The audience's title"),
      p('clues', "The audience's or reader's clues, one per line", true),
    ],
    defaultTitle: 'Article relevance (default)',
    defaultPrompt: RELEVANCE_PROMPT,
  },
  {
    id: 'source-audience-matching',
    name: 'Populate source and audience matching',
    placeholders: [
      ...article,
      p('source', 'The name of the feed the article came from'),
      p('audience', "The audience's title"),
      p('clues', "The audience's clues, one per line", true),
    ],
    defaultTitle: 'Source and audience matching (default)',
    defaultPrompt: `Source: {source}\n\n${RELEVANCE_PROMPT}`,
  },
  {
    id: 'pick-best-content',
    name: 'Pick best content for descriptors',
    placeholders: [
      p('audience', "The audience's title", true),
      p('clues', "The audience's clues, one per line"),
      p('articles', 'The scored candidate articles, numbered, with title, summary and score', true),
    ],
    defaultTitle: 'Pick best content (default)',
    defaultPrompt: `Audience: those who {audience}
Clues:
{clues}

Candidate articles:
{articles}

Pick the primary story and up to three secondary stories for this audience, write a short header for each group and one sentence on why this bundle matters to them.`,
  },
  {
    id: 'audience-matching',
    name: 'Audience matching',
    placeholders: [
      ...article,
      p('audience', "The audience's title", true),
      p('clues', "The audience's clues, one per line", true),
    ],
    defaultTitle: 'Audience matching (default)',
    defaultPrompt: `Audience: those who {audience}\n\n${RELEVANCE_PROMPT}`,
  },
  {
    id: 'prompt-testing',
    name: 'Prompt testing',
    placeholders: [
      ...article,
      p('audience', "The audience's title", true),
      p('clues', "The audience's clues, one per line", true),
    ],
    defaultTitle: 'Prompt testing (default)',
    defaultPrompt: `Audience: those who {audience}\n\n${RELEVANCE_PROMPT}`,
  },
  {
    id: 'audience-name-assessment',
    name: 'Audience name assessment',
    placeholders: [
      p('prefix', 'The sentence starter, e.g. "I am one of those who"', true),
      p('pointer', 'The chosen pointer, if any'),
      p('audienceName', 'What the person typed', true),
    ],
    defaultTitle: 'Audience name assessment (default)',
    defaultPrompt: `A reader completed the sentence "{prefix} {pointer} ..." with: "{audienceName}".

How insightful is this for picking web3 stories for them? Broad phrases such as "like crypto" are not insightful; a role, a protocol or a niche makes it insightful.`,
  },
  {
    id: 'assistant-onboarding',
    name: 'Assistant: onboarding',
    placeholders: [],
    defaultTitle: 'Onboarding interview (default)',
    defaultPrompt: `You are the reader's content curator. Interview a new reader in short, friendly messages to learn what they do and care about in web3: roles, chains, protocols, niches. Ask one question at a time. Turn what they say into clues: short first-person sentences such as "I build DeFi protocols".`,
  },
  {
    id: 'assistant-change-clues',
    name: 'Assistant: change clues',
    placeholders: [
      p('clues', "The reader's current clues, one per line", true),
      p(
        'story',
        'In feedback on an article: the story the reader liked or disliked (title, source, ' +
          'summary) and what to do about it; empty otherwise, and added at the end when a ' +
          'prompt leaves it out',
      ),
    ],
    defaultTitle: 'Change clues (default)',
    defaultPrompt: `You are the reader's content curator. Their current clues are:
{clues}

Help them add, change or remove clues in short, friendly messages, one question at a time. Clues are short first-person sentences such as "I build DeFi protocols".

{story}`,
  },
];

export function automation(id: string): Automation | undefined {
  return AUTOMATIONS.find((a) => a.id === id);
}
