import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import frame from 'virtual:console-frame-messages';
import { whenCatalogLoads } from './catalog';
import { reactAdmin } from './en/react-admin';

const FRAME = { ...reactAdmin, ...frame } as TranslationMessages;
let catalog: TranslationMessages | undefined;

/**
 * The console's English: the frame's phrases at first (sign-in, layout, menu), the whole catalog once the first
 * screen has brought it. Options go last, so that the switch to the catalog keeps them.
 */
export const i18nProvider = polyglotI18nProvider(() => catalog ?? FRAME, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});

whenCatalogLoads(async (messages) => {
  catalog = messages;
  await i18nProvider.changeLocale('en');
});
