import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { catalogAndSales } from './en/catalog-and-sales';
import { consoleLabels } from './en/console';
import { content } from './en/content';
import { finance } from './en/finance';
import { identity } from './en/identity';
import { listTools } from './en/lists';
import { reports } from './en/reports';
import { schoolLabels, schoolResource } from './en/school';
import { tax, taxMenu } from './en/tax';
import { videos } from './en/videos';

/** The console's labels: react-admin's English, plus each resource's name and field labels (one file per area). */
export const messages = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    notification: {
      ...englishMessages.ra.notification,
      created: 'Created',
      updated: 'Saved |||| %{smart_count} saved',
      deleted: 'Deleted |||| %{smart_count} deleted',
    },
  },
  resources: { ...catalogAndSales, ...tax, ...content, ...identity, ...videos, school: schoolResource },
  finance,
  reports,
  console: {
    ...consoleLabels,
    menu: { ...consoleLabels.menu, ...taxMenu },
    ...listTools,
    school: schoolLabels,
  },
};

export const i18nProvider = polyglotI18nProvider(() => messages, 'en', { allowMissing: true });
