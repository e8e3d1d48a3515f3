import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages } from '../../admin/src/i18n';
import { sourceFiles } from '../support/source-files';

// The console's English catalog is complete: every key its code names exists, so a second language is one more
// catalog file. A key is any whole string literal that starts with a catalog's root (`console.`, `finance.`,
// `resources.`, `ra.`): what translate(), notify(), label="…", helperText="…" and the shared components receive.

const SOURCE = path.resolve(import.meta.dirname, '../../admin/src');
const KEY = /(['"`])((?:console|finance|resources|ra)\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\1/g;

/** Each key the console's code names, with the first file that names it. */
function keysInSource(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const file of sourceFiles(SOURCE, ['i18n'])) {
    for (const [, , key] of readFileSync(file, 'utf8').matchAll(KEY))
      if (!keys.has(key!)) keys.set(key!, path.relative(SOURCE, file));
  }
  return keys;
}

const phrase = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

/** A key built at run time (`console.lists.bulk.${name}.label`): the group before its first `${`. */
const BUILT_KEY = /`((?:console|finance|resources|ra)\.(?:[A-Za-z0-9_-]+\.)*)\$\{/g;

/** Each group of keys the console's code builds at run time, with the first file that builds one. */
function builtKeyGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  for (const file of sourceFiles(SOURCE, ['i18n'])) {
    for (const [, prefix] of readFileSync(file, 'utf8').matchAll(BUILT_KEY)) {
      const group = prefix!.replace(/\.$/, '');
      if (!groups.has(group)) groups.set(group, path.relative(SOURCE, file));
    }
  }
  return groups;
}

describe('the console’s English catalog', () => {
  it('has a phrase for every key the console names', () => {
    const keys = keysInSource();
    expect(keys.size).toBeGreaterThan(100); // the scan found the console's keys at all
    const missing = [...keys]
      .filter(([key]) => typeof phrase(key) !== 'string')
      .map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('has the group of phrases for every key the console builds at run time', () => {
    const groups = builtKeyGroups();
    expect(groups.size).toBeGreaterThan(20);
    // `resources.${name}` is any resource's: its names are checked against the registry below.
    const missing = [...groups]
      .filter(([group]) => group !== 'resources')
      .filter(([group]) => typeof phrase(group) !== 'object')
      .map(([group, file]) => `${group} (${file})`);
    expect(missing).toEqual([]);
  });

  it('shows a validation message through react-admin, which decodes it, never as its raw key', () => {
    // useInput hands a validator's message over encoded (@@react-admin@@"console.limit.whole"): translate() of it
    // shows that code on screen. react-admin's InputHelperText (or ValidationError) decodes and translates it.
    const raw = sourceFiles(SOURCE, ['i18n'])
      .filter((file) => {
        const code = readFileSync(file, 'utf8');
        return /fieldState\.error/.test(code) && !/<(InputHelperText|ValidationError)\b/.test(code);
      })
      .map((file) => path.relative(SOURCE, file));
    expect(raw).toEqual([]);
  });

  it('names every resource of the registry, and every section of its menu', async () => {
    // The registry imports the console's screens (TSX, typed by admin/tsconfig.json): loaded at run time.
    const registry = path.resolve(SOURCE, 'registry/index.ts');
    const { CONSOLE_RESOURCES } = (await import(/* @vite-ignore */ registry)) as {
      CONSOLE_RESOURCES: readonly { name: string; group: string }[];
    };
    const missing = CONSOLE_RESOURCES.flatMap((r) => [`resources.${r.name}.name`, `console.menu.${r.group}`]).filter(
      (key) => typeof phrase(key) !== 'string',
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});
