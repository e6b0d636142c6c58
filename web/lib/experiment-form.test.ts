import { describe, expect, it } from 'vitest';
import {
  changeSteps,
  emptyRun,
  fieldMessage,
  inputOf,
  valuesFrom,
  valuesOf,
  type RunMessages,
} from './experiment-form';

const MESSAGES: RunMessages = {
  name: 'Please add a name',
  dataset: 'Please select dataset',
  model: 'Please select model',
  prompt: 'Please select prompt',
  numOfPicks: 'Please add a number of picks',
  articleLimit: 'Please add article limit',
  preprocessType: 'Please select preprocess type',
  concatenationType: 'Please select concatenation type',
  selectionOfRelevance: 'Please select at least one relevance option',
  threshold: 'Value should be between 0 and 1',
  steps: 'Please add at least one step',
};

const LIMITS = { numOfPicks: 4, articleLimit: 200, steps: 5 };

const form = (entries: [string, string][]) => new URLSearchParams(entries);

describe('the run form values', () => {
  it("reads a single run's fields and sends only those its implementation asks for, typed", () => {
    const values = valuesFrom(
      form([
        ['name', 'Sharper'],
        ['dataset', 'ds1'],
        ['expGptModelId', 'm1'],
        ['expPromptId', 'p1'],
        ['articleLimit', '20'],
        ['threshold', '0.25'],
        ['numOfPicks', '3'],
        ['selectionOfRelevance', 'Very Relevant'],
        ['selectionOfRelevance', 'Relevant'],
      ]),
    );
    expect(values.settings.selectionOfRelevance).toEqual(['Very Relevant', 'Relevant']);
    expect(
      inputOf(values, ['model', 'prompt', 'articleLimit', 'threshold'], false, () => []),
    ).toEqual({
      dataset: 'ds1',
      expGptModelId: 'm1',
      expPromptId: 'p1',
      articleLimit: 20,
      threshold: 0.25,
    });
  });

  it('keeps an empty number undefined and a word as NaN, so the check answers its message', () => {
    const values = valuesFrom(
      form([
        ['articleLimit', ''],
        ['numOfPicks', 'many'],
      ]),
    );
    const input = inputOf(values, ['articleLimit', 'numOfPicks'], false, () => []);
    expect(input.articleLimit).toBeUndefined();
    expect(input.numOfPicks).toBeNaN();
  });

  it("reads a chain's steps in order, each with its own implementation's fields", () => {
    const values = valuesFrom(
      form([
        ['dataset', 'ds1'],
        ['stepCount', '2'],
        ['expanded', '1'],
        ['steps.0.expImplementationId', 'score'],
        ['steps.0.expGptModelId', 'm1'],
        ['steps.0.numOfPicks', '9'],
        ['steps.1.expImplementationId', 'pick'],
        ['steps.1.numOfPicks', '4'],
      ]),
    );
    expect(values.expanded).toBe(1);
    const fieldsOf = (id: string) =>
      id === 'score' ? (['model'] as const) : (['numOfPicks'] as const);
    expect(inputOf(values, [], true, (id) => [...fieldsOf(id)])).toEqual({
      dataset: 'ds1',
      steps: [
        { expImplementationId: 'score', expGptModelId: 'm1' },
        { expImplementationId: 'pick', numOfPicks: 4 },
      ],
    });
  });

  it('bounds what a form may carry: at most 10 steps, an open step that exists', () => {
    const values = valuesFrom(
      form([
        ['stepCount', '5000'],
        ['expanded', '40'],
      ]),
    );
    expect(values.steps).toHaveLength(10);
    expect(values.expanded).toBe(-1);
  });

  it('starts an edit from the stored run, steps collapsed, and reads back the same input', () => {
    const run = {
      id: 'r1',
      revision: 3,
      name: 'Chain',
      comments: '',
      input: {
        dataset: 'ds1',
        steps: [{ expImplementationId: 'pick', numOfPicks: 2, selectionOfRelevance: ['Relevant'] }],
      },
    };
    const values = valuesOf(run);
    expect(values).toMatchObject({ id: 'r1', revision: 3, expanded: -1 });
    expect(inputOf(values, [], true, () => ['numOfPicks', 'selectionOfRelevance'])).toEqual(
      run.input,
    );
  });
});

describe('the chain steps', () => {
  const withSteps = () => {
    let values = emptyRun();
    values = changeSteps(values, 'add-step', 0);
    values = {
      ...values,
      steps: [{ ...values.steps[0]!, expImplementationId: 'score', expGptModelId: 'm1' }],
    };
    return changeSteps(values, 'add-step', 1);
  };

  it('adds no step past the limit', () => {
    const values = withSteps();
    expect(changeSteps(values, 'add-step', 2, 2).steps).toHaveLength(2);
  });

  it('adding a step keeps the fields of the one before and opens only the new one', () => {
    const values = withSteps();
    expect(values.steps).toHaveLength(2);
    expect(values.steps[0]).toMatchObject({ expImplementationId: 'score', expGptModelId: 'm1' });
    expect(values.expanded).toBe(1);
  });

  it('expands one step at a time, collapses, and removes a step keeping the open one open', () => {
    const values = withSteps();
    expect(changeSteps(values, 'expand-step', 0).expanded).toBe(0);
    expect(changeSteps(values, 'collapse-step', 1).expanded).toBe(-1);
    const removed = changeSteps(values, 'remove-step', 0);
    expect(removed.steps.map((step) => step.expImplementationId)).toEqual(['']);
    expect(removed.expanded).toBe(0);
    expect(changeSteps(values, 'remove-step', 1).expanded).toBe(-1);
  });
});

describe("the form's messages on blur", () => {
  const settings = () => emptyRun().settings;

  it("answers each empty field with the spec's message", () => {
    const empty = settings();
    expect(fieldMessage('model', empty, MESSAGES, LIMITS)).toBe('Please select model');
    expect(fieldMessage('prompt', empty, MESSAGES, LIMITS)).toBe('Please select prompt');
    expect(fieldMessage('numOfPicks', empty, MESSAGES, LIMITS)).toBe(
      'Please add a number of picks',
    );
    expect(fieldMessage('articleLimit', { ...empty, articleLimit: '0' }, MESSAGES, LIMITS)).toBe(
      'Please add article limit',
    );
    expect(fieldMessage('preprocessType', empty, MESSAGES, LIMITS)).toBe(
      'Please select preprocess type',
    );
    expect(fieldMessage('concatenationType', empty, MESSAGES, LIMITS)).toBe(
      'Please select concatenation type',
    );
    expect(fieldMessage('selectionOfRelevance', empty, MESSAGES, LIMITS)).toBe(
      'Please select at least one relevance option',
    );
  });

  it('refuses numbers above their limits', () => {
    expect(fieldMessage('numOfPicks', { ...settings(), numOfPicks: '5' }, MESSAGES, LIMITS)).toBe(
      'Please add a number of picks',
    );
    expect(fieldMessage('numOfPicks', { ...settings(), numOfPicks: '4' }, MESSAGES, LIMITS)).toBe(
      undefined,
    );
    expect(
      fieldMessage('articleLimit', { ...settings(), articleLimit: '201' }, MESSAGES, LIMITS),
    ).toBe('Please add article limit');
  });

  it('accepts a threshold from 0 to 1 and refuses one outside', () => {
    const at = (threshold: string) =>
      fieldMessage('threshold', { ...settings(), threshold }, MESSAGES, LIMITS);
    expect([at('0'), at('0.125'), at('1')]).toEqual([undefined, undefined, undefined]);
    expect([at('1.5'), at('-0.1')]).toEqual([MESSAGES.threshold, MESSAGES.threshold]);
  });
});

describe('typed text over its limit', () => {
  it('keeps comments past their 2,000 characters, so the save is refused instead of cutting them', () => {
    const typed = 'c'.repeat(2_500);
    const values = valuesFrom(new URLSearchParams({ name: 'Run', comments: typed }));
    expect(values.comments).toBe(typed);
  });
});
