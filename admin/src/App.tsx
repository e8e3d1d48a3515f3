import { Admin, CustomRoutes, Resource, reactRouterProvider } from 'react-admin';
import { LoginPage } from './auth/LoginPage';
import { authProvider } from './authProvider';
import { lazyScreen } from './common/lazyScreen';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n/provider';
import { ConsoleLayout, consoleLightTheme } from './layout';
import { canEditSchool, canSeeFinance, canSeeRefundsReport, rolesOf } from './permissions';
import { CONSOLE_RESOURCES, canRead, canWrite } from './registry';

const { Route } = reactRouterProvider;

// Every page loads when it is opened, the dashboard too: the first load carries the frame (layout, menu, sign-in).
const Dashboard = lazyScreen(() => import('./Dashboard'), 'Dashboard');
const FinancePage = lazyScreen(() => import('./finance/FinancePage'), 'default');
const RefundsReportPage = lazyScreen(() => import('./refunds-report/RefundsReportPage'), 'default');
const PayoutBalancesPage = lazyScreen(() => import('./payouts/BalancesPage'), 'default');
const ReconciliationPage = lazyScreen(() => import('./reconciliation/ReconciliationPage'), 'default');
const SchoolSettingsPage = lazyScreen(() => import('./school/SchoolSettingsPage'), 'default');

/** Custom pages, for the roles that may use them (the API enforces the same). */
function customRoutesFor(permissions: unknown) {
  const finance = canSeeFinance(permissions);
  const refunds = canSeeRefundsReport(permissions);
  const school = canEditSchool(permissions);
  if (!finance && !refunds && !school) return null;
  return (
    <CustomRoutes key="custom-routes">
      {finance ? <Route path="/finance" element={<FinancePage />} /> : null}
      {finance ? <Route path="/payout-balances" element={<PayoutBalancesPage />} /> : null}
      {finance ? <Route path="/reconciliation" element={<ReconciliationPage />} /> : null}
      {refunds ? <Route path="/refunds-report" element={<RefundsReportPage />} /> : null}
      {school ? <Route path="/school" element={<SchoolSettingsPage />} /> : null}
    </CustomRoutes>
  );
}

/** The resources the signed-in roles may read; write screens only where they may write. The API enforces both. */
function resourcesFor(permissions: unknown) {
  const roles = rolesOf(permissions);
  const resources = CONSOLE_RESOURCES.filter((r) => canRead(roles, r)).map((r) => {
    const writable = canWrite(roles, r);
    return (
      <Resource
        key={r.name}
        name={r.name}
        list={r.hidden ? undefined : r.list}
        show={r.show}
        edit={writable ? r.edit : undefined}
        create={writable ? r.create : undefined}
        icon={r.icon}
        recordRepresentation={r.recordRepresentation as string | undefined}
      />
    );
  });
  return [...resources, customRoutesFor(permissions)];
}

export function App() {
  return (
    <Admin
      title="Console"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      loginPage={LoginPage}
      dashboard={Dashboard}
      layout={ConsoleLayout}
      theme={consoleLightTheme}
      disableTelemetry
      requireAuth
    >
      {resourcesFor}
    </Admin>
  );
}
