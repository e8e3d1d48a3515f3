import { describe, expect, it } from 'vitest';
import { withoutRepeatedTitle } from '../../storefront/src/pages/lesson/lessonBody';

describe('a lesson body shown under its title', () => {
  it('drops a first heading that repeats the title, whatever its level, markup, spacing or case', () => {
    expect(withoutRepeatedTitle('<h2>Welcome</h2>\n<p>Hello.</p>', 'Welcome')).toBe('<p>Hello.</p>');
    expect(
      withoutRepeatedTitle('  <h1 class="x"><strong>Types &amp; values</strong></h1><p>A</p>', 'types & values'),
    ).toBe('<p>A</p>');
    expect(withoutRepeatedTitle('<h3>Arrays  and\ntuples</h3><p>B</p>', 'Arrays and tuples')).toBe('<p>B</p>');
  });

  it('keeps every other body as it is: another heading first, a later heading, or no heading', () => {
    const bodies = [
      '<h2>Before you start</h2><p>Welcome</p>',
      '<p>Intro</p><h2>Welcome</h2>',
      '<p>Welcome</p>',
      '<h2>Welcome back</h2><p>C</p>',
      '',
    ];
    for (const body of bodies) expect(withoutRepeatedTitle(body, 'Welcome')).toBe(body);
  });
});
