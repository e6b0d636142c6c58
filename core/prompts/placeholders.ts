// {placeholders} in prompt text: which ones a text uses, whether an automation allows them, and
// filling them from named inputs. Braces that do not wrap a name (JSON examples) are left alone.
import { VisibleError } from '#core/common';
import type { Automation } from './automations';

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

const braces = (names: string[]) => names.map((name) => `{${name}}`).join(', ');

/** Refuses a prompt that uses a placeholder its automation does not fill, or lacks a required one. */
export function checkPlaceholders(
  text: string,
  automation: Pick<Automation, 'name' | 'placeholders'>,
): void {
  const used = placeholdersIn(text);
  const known = automation.placeholders.map((p) => p.name);
  const unknown = used.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const allowed = known.length > 0 ? `it can use ${braces(known)}` : 'it uses no placeholders';
    throw new VisibleError(
      'prompt.unknown_placeholder',
      `Unknown placeholder ${braces(unknown)} for ${automation.name}: ${allowed}`,
      400,
    );
  }
  const missing = automation.placeholders.filter((p) => p.required && !used.includes(p.name));
  if (missing.length > 0) {
    throw new VisibleError(
      'prompt.missing_placeholder',
      `A prompt for ${automation.name} must use ${braces(missing.map((p) => p.name))}`,
      400,
    );
  }
}

export type PromptInputs = Record<string, string | number | string[] | undefined>;

/** Fills every placeholder; lists become one item per line. Optional inputs may be left out. */
export function fill(text: string, inputs: PromptInputs): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(name in inputs)) throw new Error(`No input for the placeholder ${whole}`);
    const value = inputs[name];
    if (value === undefined) return '';
    return Array.isArray(value) ? value.map((item) => `- ${item}`).join('\n') : String(value);
  });
}
