import type { TranslationMessages } from 'react-admin';

/**
 * The parts of the catalog the frame shows besides react-admin's own (./en/react-admin.ts, which react-admin's code
 * carries anyway): sign-in, the layout, the menu's sections and pages.
 */
const FRAME_PATHS = ['console.auth', 'console.layout', 'console.menu', 'console.school.menu'];

type Catalog = { [key: string]: string | Catalog };

function pick(from: Catalog, path: string[], into: Catalog): void {
  const [head, ...rest] = path as [string, ...string[]];
  const value = from[head];
  if (value === undefined) return;
  if (rest.length === 0 || typeof value === 'string') {
    into[head] = value;
    return;
  }
  into[head] ??= {};
  pick(value, rest, into[head] as Catalog);
}

/**
 * The console's own phrases that its frame shows before any screen has loaded: the parts above and each resource's
 * name (the menu's entries). The build picks them from the catalog (vite.config.ts), so the first load carries these and not
 * the whole catalog, which arrives with the first screen opened (./catalog.ts).
 */
export function frameMessages(messages: TranslationMessages): Record<string, unknown> {
  const catalog = messages as unknown as Catalog;
  const frame: Catalog = {};
  for (const path of FRAME_PATHS) pick(catalog, path.split('.'), frame);
  const resources = (catalog.resources ?? {}) as Catalog;
  frame.resources = Object.fromEntries(
    Object.entries(resources).flatMap(([name, labels]) =>
      typeof labels === 'object' && typeof labels.name === 'string' ? [[name, { name: labels.name }]] : [],
    ),
  );
  return frame;
}
