/**
 * Templates an operator writes for a backend (a ComfyUI workflow, a Replicate model's input):
 * JSON in which `{{name}}` stands for a value of the request. A string that is exactly one
 * placeholder becomes the value itself, typed (`"{{seed}}"` → 42); inside longer text it is
 * written out (`"photo of {{prompt}}"`).
 */
import type { GenerationKind } from '../types.ts';

export type TemplateValues = Record<string, string | number>;

/** What each kind of request can fill in. `image` (edits only) is the uploaded picture, as the backend refers to it. */
export const PLACEHOLDERS: Record<Exclude<GenerationKind, 'chat'>, readonly string[]> = {
  image: ['prompt', 'negative_prompt', 'seed', 'width', 'height', 'n', 'model', 'strength', 'image'],
  video: ['prompt', 'negative_prompt', 'seed', 'width', 'height', 'fps', 'duration', 'frames', 'style', 'model'],
  music: ['prompt', 'seed', 'duration', 'model'],
};

const PATTERN = /\{\{\s*([a-z_]+)\s*\}\}/g;
const WHOLE = /^\{\{\s*([a-z_]+)\s*\}\}$/;

export function placeholdersIn(template: unknown, found = new Set<string>()): Set<string> {
  if (typeof template === 'string') for (const m of template.matchAll(PATTERN)) found.add(m[1]!);
  else if (Array.isArray(template)) for (const v of template) placeholdersIn(v, found);
  else if (template && typeof template === 'object') for (const v of Object.values(template)) placeholdersIn(v, found);
  return found;
}

/** Throws, naming them, if the template uses placeholders its kind does not fill. */
export function checkPlaceholders(template: unknown, kind: Exclude<GenerationKind, 'chat'>, where: string): void {
  const allowed = PLACEHOLDERS[kind];
  const unknown = [...placeholdersIn(template)].filter((p) => !allowed.includes(p));
  if (unknown.length > 0) throw new Error(`${where}: unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((p) => `{{${p}}}`).join(', ')} (${kind} templates may use ${allowed.map((p) => `{{${p}}}`).join(', ')})`);
}

/** A deep copy of the template with the values in. A placeholder without a value becomes "" (or stays out of longer text). */
export function fillTemplate<T>(template: T, values: TemplateValues): T {
  const fill = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const whole = WHOLE.exec(node);
      if (whole) return values[whole[1]!] ?? '';
      return node.replace(PATTERN, (_, name: string) => String(values[name] ?? ''));
    }
    if (Array.isArray(node)) return node.map(fill);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fill(v)]));
    return node;
  };
  return fill(template) as T;
}

/** Drops keys whose value came out empty, so a backend's own default applies (no negative prompt, no picture). */
export function withoutEmpty(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== '' && v !== undefined && v !== null));
}
