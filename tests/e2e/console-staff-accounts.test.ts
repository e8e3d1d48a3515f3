import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../api/src/shared/roles';
import { signedIn } from '../support/auth';
import { CONSOLE_WIDTHS, checkScreen, signedInContext, useDemoSite } from '../support/browser';

const TOOLS = ['Block', 'Change email', 'Sign out everywhere', 'View as'] as const;
/** Revoking one of their sessions, from the Sessions tab. */
const REVOKE = 'Revoke session';

/** A person's page offers support the tools on people only for learners: anyone who opens the console is an admin's. */
describe('a staff member’s page in the console (Chromium)', () => {
  const site = useDemoSite();

  /** The person tools the page offers, once it shows the person. */
  async function toolsOn(page: Page, person: { id: string; email: string }, screen: string): Promise<string[]> {
    const { baseUrl } = site();
    await page.goto(`${baseUrl}/admin/#/users/${person.id}/show`);
    await page.getByText(person.email).first().waitFor();
    // The page's own buttons are there (the tools would be beside them) before the tools are counted.
    await page.getByRole('tab', { name: 'Timeline' }).waitFor();
    await checkScreen(page, screen, { widths: CONSOLE_WIDTHS });
    const shown: string[] = [];
    for (const name of TOOLS) if (await page.getByRole('button', { name, exact: true }).count()) shown.push(name);
    // Their one session, and whether it may be revoked here.
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await page.getByText('test', { exact: true }).first().waitFor();
    if (await page.getByRole('button', { name: REVOKE }).count()) shown.push(REVOKE);
    await page.getByRole('tab', { name: 'Summary' }).click();
    return shown;
  }

  it('shows support no block, email change, sign-out, revoke or view as on a contributor’s page; an admin all but view as', async () => {
    const { browser, baseUrl, db } = site();
    const people = Object.fromEntries(
      await Promise.all(
        (['contributor', 'learner'] as Role[]).map(
          async (role) => [role, (await signedIn(db, [role], `${role}.page@example.com`)).user] as const,
        ),
      ),
    );
    const support = await (await signedInContext(browser, baseUrl, db, ['support'])).newPage();
    expect(await toolsOn(support, people.learner!, 'console-person-learner-support')).toEqual([...TOOLS, REVOKE]);
    expect(await toolsOn(support, people.contributor!, 'console-person-contributor-support')).toEqual([]);

    const admin = await (await signedInContext(browser, baseUrl, db, ['admin'])).newPage();
    expect(await toolsOn(admin, people.contributor!, 'console-person-contributor-admin')).toEqual([
      'Block',
      'Change email',
      'Sign out everywhere',
      REVOKE,
    ]);
  });
});
