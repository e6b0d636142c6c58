import { describe, expect, it } from 'vitest';
import * as Prompts from '#core/prompts';

describe('prompts', () => {
  it('refuses an unknown placeholder when saved, naming the allowed ones', async () => {
    await expect(
      Prompts.create({
        expImplementationId: 'scoring',
        title: 'Typo',
        prompt: 'Clues: {clues}\nTitle: {title}\nBody: {body}',
      }),
    ).rejects.toMatchObject({
      name: 'VisibleError',
      code: 'prompt.unknown_placeholder',
      message: expect.stringContaining('Unknown placeholder {body} for Score unscored articles'),
    });
  });

  it('refuses a prompt missing a required placeholder', async () => {
    await expect(
      Prompts.create({ expImplementationId: 'scoring', title: 'No clues', prompt: 'Rate {title}' }),
    ).rejects.toMatchObject({
      code: 'prompt.missing_placeholder',
      message: 'A prompt for Score unscored articles must use {clues}',
    });
  });

  it("answers the spec's messages for an empty name or prompt", async () => {
    await expect(
      Prompts.create({ expImplementationId: 'scoring', title: ' ', prompt: '{clues} {title}' }),
    ).rejects.toMatchObject({ message: 'Please add a name' });
    await expect(
      Prompts.create({ expImplementationId: 'scoring', title: 'x', prompt: '' }),
    ).rejects.toMatchObject({ message: 'Please add a prompt' });
  });

  it('leaves JSON braces alone and fills lists one per line', () => {
    expect(Prompts.placeholdersIn('{"score": 1} {clues} {title} {clues}')).toEqual([
      'clues',
      'title',
    ]);
    expect(
      Prompts.render(
        { prompt: 'Clues:\n{clues}\nTitle: {title}' },
        {
          clues: ['I build DeFi protocols', 'I audit bridges'],
          title: 'Oracle latency',
        },
      ),
    ).toBe('Clues:\n- I build DeFi protocols\n- I audit bridges\nTitle: Oracle latency');
  });

  it('lists newest first and hides deleted prompts', async () => {
    const first = await Prompts.create({
      expImplementationId: 'prompt-testing',
      title: 'First',
      prompt: '{audience} {clues} {title}',
      systemUserId: 'admin-1',
    });
    await new Promise((r) => setTimeout(r, 5));
    const second = await Prompts.create({
      expImplementationId: 'prompt-testing',
      title: 'Second',
      prompt: 'For {audience}: {clues} / {title} / {summary}',
    });
    let listed = (await Prompts.list('prompt-testing')).map((p) => p.id);
    expect(listed.indexOf(second.id)).toBeLessThan(listed.indexOf(first.id));
    expect((await Prompts.current('prompt-testing')).id).toBe(listed[0]);

    await Prompts.disable({ id: second.id });
    listed = (await Prompts.list('prompt-testing')).map((p) => p.id);
    expect(listed).not.toContain(second.id);
    expect(listed).toContain(first.id);
    expect((await Prompts.byId(second.id))?.isDeleted).toBe(true);
    // The newest is hidden: the current prompt is the newest still shown.
    expect((await Prompts.current('prompt-testing')).id).toBe(first.id);
  });

  it("refuses to delete a prompt that does not exist with the spec's message", async () => {
    await expect(Prompts.disable({ id: 'no-such-prompt' })).rejects.toMatchObject({
      message: 'Could not delete prompt - Invalid prompt id',
    });
    await expect(Prompts.disable({ id: '' })).rejects.toMatchObject({
      message: 'Could not delete prompt - Invalid prompt id',
    });
  });

  it('seeds a valid default prompt for every automation, once', async () => {
    for (const automation of Prompts.AUTOMATIONS) {
      expect(() => Prompts.checkPlaceholders(automation.defaultPrompt, automation)).not.toThrow();
    }
    await Prompts.seedDefaults();
    expect(await Prompts.seedDefaults()).toBe(0);
    const stored = await Prompts.byId(Prompts.defaultPromptId('audience-name-assessment'));
    expect(stored?.prompt).toContain('{audienceName}');
  });
});
