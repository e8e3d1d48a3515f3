import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { useCatalogLoaded } from '../i18n/catalog';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

/**
 * The page never scrolls sideways at the widths staff use (1440 and 1024 px): react-admin's layout grows to fit its
 * widest content, so a wide table pushed the whole page, toolbar and pagination off screen. Here the content takes
 * the width left beside the menu, and a table wider than that scrolls inside its own box.
 */
const FIT_TO_SCREEN = {
  minWidth: 0,
  '& .RaLayout-content, & .RaList-main, & .RaShow-main, & .RaEdit-main, & .RaCreate-main': { minWidth: 0 },
  '& .RaDatagrid-tableWrapper': { overflowX: 'auto' },
  // A list's filters and its buttons share a row while they fit; then the buttons wrap, below the filters if need be.
  '& .RaListToolbar-root': { flexWrap: 'wrap' },
  '& .RaTopToolbar-root': { flexWrap: 'wrap', rowGap: 0.5 },
} as const;

/** react-admin's layout with the console's grouped menu and an account menu named as it reads. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  // Drawn again when the whole catalog arrives, so a label of the frame missing from its own phrases shows then.
  useCatalogLoaded();
  return (
    <Layout menu={ConsoleMenu} appBar={ConsoleAppBar} sx={FIT_TO_SCREEN}>
      {children}
    </Layout>
  );
}
