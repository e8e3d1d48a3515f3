import { catalogAndSales } from './en/catalog-and-sales';
import { consoleLabels } from './en/console';
import { content } from './en/content';
import { finance } from './en/finance';
import { identity } from './en/identity';
import { listTools } from './en/lists';
import { monthCloses } from './en/month-closes';
import { paymentPlanLabels } from './en/payment-plans';
import { subscriptionLabels } from './en/subscriptions';
import { payouts } from './en/payouts';
import { reconciliation } from './en/reconciliation';
import { reactAdmin } from './en/react-admin';
import { reports } from './en/reports';
import { schoolLabels, schoolResource } from './en/school';
import { tax, taxMenu } from './en/tax';
import { videos } from './en/videos';
import { quizLabels, quizResources } from './en/quizzes';
import { attachmentLabels, embedLabels } from './en/attachments';

/**
 * The console's labels: react-admin's English, plus each resource's name and field labels (one file per area). The
 * frame's part loads first (./frame.ts); the whole catalog with the first screen (./catalog.ts).
 */
export const messages = {
  ...reactAdmin,
  resources: {
    ...catalogAndSales,
    ...payouts,
    ...monthCloses,
    ...paymentPlanLabels,
    ...subscriptionLabels,
    ...tax,
    ...content,
    ...identity,
    ...videos,
    ...quizResources,
    school: schoolResource,
  },
  finance,
  reports,
  reconciliation,
  console: {
    ...consoleLabels,
    menu: { ...consoleLabels.menu, ...taxMenu },
    ...listTools,
    school: schoolLabels,
    quiz: quizLabels,
    attachments: attachmentLabels,
    embeds: embedLabels,
  },
};
