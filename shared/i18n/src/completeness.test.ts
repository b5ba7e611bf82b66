import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LANGUAGES } from './locale.ts';

/**
 * Every namespace of the product (the shell's, the common catalogue, each remote's) exists in
 * all ten languages with the same keys and placeholders, and nothing is left in English.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const NAMESPACES = [
  'shared/i18n/src/locales',
  'shell/src/locales',
  ...readdirSync(join(ROOT, 'remotes')).map((r) => `remotes/${r}/src/locales`),
];
/**
 * Values that are correctly the same as English in some languages: brand names and words those
 * languages borrowed unchanged (de "Blog", fr "Documentation"). Whole sentences never are.
 */
const SAME_EVERYWHERE = new Set(['API', 'Atelier', 'English', 'Blog', 'Chat', 'Video', 'Dashboard', 'Image', 'Administration', 'Documentation', 'Date', 'Type', 'Status', 'Version', 'Notifications', 'Service worker']);
/** A value with no words of its own once placeholders and brand names are gone (`© {{year}} Atelier`). */
const wordless = (s: string) => !/\p{L}/u.test(s.replace(/\{\{\s*\w+\s*\}\}/g, '').replace(/Atelier|API/g, ''));
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Flat = Map<string, string>;
function flatten(obj: unknown, prefix = '', out: Flat = new Map()): Flat {
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    if (v && typeof v === 'object') flatten(v, `${prefix}${k}.`, out);
    else out.set(`${prefix}${k}`, String(v));
  }
  return out;
}
const load = (dir: string, lang: string): Flat => flatten(JSON.parse(readFileSync(join(ROOT, dir, `${lang}.json`), 'utf8')));
const baseKeys = (f: Flat) => new Set([...f.keys()].map((k) => k.replace(PLURAL, '')));
const placeholders = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).map((p) => p.replace(/\s/g, '')).sort().join(',');

describe.each(NAMESPACES)('%s', (dir) => {
  const en = load(dir, 'en');
  const enBase = baseKeys(en);

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, with its placeholders, translated', (lang) => {
    const file = join(ROOT, dir, `${lang}.json`);
    expect(existsSync(file), `${file} is missing`).toBe(true);
    const t = load(dir, lang);
    const tBase = baseKeys(t);
    expect([...enBase].filter((k) => !tBase.has(k)), 'missing keys').toEqual([]);
    expect([...tBase].filter((k) => !enBase.has(k)), 'keys not in English').toEqual([]);
    const untranslated: string[] = [];
    const wrongPlaceholders: string[] = [];
    for (const [key, value] of t) {
      const source = en.get(key) ?? en.get(key.replace(PLURAL, '_other'));
      if (source === undefined) continue;
      if (value === source && !SAME_EVERYWHERE.has(value) && !wordless(value)) untranslated.push(key);
      // `_one` forms may drop the count ("1 credit" → "one credit"); others keep every placeholder.
      if (!key.endsWith('_one') && placeholders(value) !== placeholders(source)) wrongPlaceholders.push(key);
    }
    expect(untranslated, 'values identical to English').toEqual([]);
    expect(wrongPlaceholders, 'placeholders differ from English').toEqual([]);
  });
});
