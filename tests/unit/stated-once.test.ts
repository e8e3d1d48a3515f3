import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles as filesBelow } from '../support/source-files';

/**
 * Rules written once, in api/src/shared, and imported everywhere else: a second copy would not change when the rule
 * does. Each pattern finds a copy by how copies of it were written.
 */
const ROOT = path.resolve(__dirname, '../..');
const SOURCES = ['api/src', 'admin/src', 'storefront/src'];

/** The sources below `dir`, named from the repository's root. */
const sourceFiles = (dir: string) => filesBelow(path.join(ROOT, dir)).map((file) => path.relative(ROOT, file));

const RULES: { rule: string; home: string[]; copy: RegExp }[] = [
  { rule: 'the id pattern', home: ['api/src/shared/uuid.ts'], copy: /\[0-9a-f\]\{8\}-/i },
  {
    rule: 'HTML escaping',
    home: ['api/src/shared/escape-html.ts'],
    copy: /(function|const) escape(Html|Xml)\b|&#\$\{\w+\.charCodeAt|replace\(\/&\/g, '&amp;'\)/,
  },
  {
    rule: 'money formatting',
    home: ['api/src/shared/money.ts', 'api/src/shared/currency.ts'],
    copy: /style: 'currency'/,
  },
  { rule: 'a count in words', home: ['api/src/shared/words.ts'], copy: /=== 1 \? one : many/ },
  {
    rule: 'the name of a person without a display name',
    home: ['api/src/shared/shown-name.ts'],
    copy: /['"“`]A learner['"”`]|`Learner \$\{/,
  },
  {
    rule: "a staff reason's limits",
    home: ['api/src/shared/staff-reason.ts'],
    copy: /REASON_(MIN|MAX) = \d|reason[^\n]*\.(min\(3|max\(500)\b|trim\(\)\.length < 3\b/i,
  },
];

describe('rules stated once', () => {
  const files = SOURCES.flatMap(sourceFiles);

  it.each(RULES)('$rule lives in its own module only', ({ home, copy }) => {
    const copies = files.filter(
      (file) => !home.includes(file) && copy.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(copies).toEqual([]);
    for (const file of home) expect(files).toContain(file);
  });
});
