import { lazy, StrictMode, type ComponentType } from 'react';
import { parse } from 'regexparam';
import { matchRoute, Route, Router, Switch } from 'wouter';
import { Layout } from './Layout';
import { storefrontNav } from './navigation';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SessionProvider } from './session';

/** A page of the storefront, and how its code arrives. */
interface Page {
  Page: ComponentType;
  /** The export's name, which is also its module's file name (ProductPage → …/ProductPage.tsx). */
  name: string;
  /** Loads the page's chunk; once loaded, the page renders at once (no "Loading the page…"). */
  preload: () => Promise<unknown>;
  /**
   * The query parameters a public page reads when rendered (the product page's coupon `code`): the server renders
   * an address once for all its other parameters (utm_*, a click id), which change nothing on the page.
   */
  query?: readonly string[];
}

/**
 * Every page but the home page is its own chunk, loaded when first visited (the Layout shows "Loading the page…"
 * meanwhile): the home page's JavaScript stays small. A chunk loaded beforehand (`preload`: the server render, and
 * the browser before it hydrates a server-rendered page) renders without suspending, so the server's HTML is kept.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): Page {
  let loaded: ComponentType | null = null;
  const preload = async () => {
    loaded ??= (await load())[name];
  };
  // React.lazy settles synchronously on a thenable that calls back at once: no suspense for a loaded chunk.
  const Page = lazy<ComponentType>(() =>
    loaded
      ? ({ then: (resolve: (module: { default: ComponentType }) => void) => resolve({ default: loaded! }) } as Promise<{
          default: ComponentType;
        }>)
      : preload().then(() => ({ default: loaded! })),
  );
  return { Page, name, preload };
}

const eager = (Page: ComponentType, name: string): Page => ({ Page, name, preload: async () => {} });

/**
 * The storefront's addresses. The first route whose path (wouter's patterns: "/teams/:purchaseId") matches the
 * address shows its page. `public` pages are rendered on the server for everyone (as a signed-out visitor sees
 * them: search engines and link previews read them); the others are the learner's own, rendered in the browser.
 */
export const routes: ({ path: string; public: boolean } & Page)[] = [
  { path: '/', public: true, ...eager(HomePage, 'HomePage') },
  {
    path: '/products/:slugOrId',
    public: true,
    query: ['code'],
    ...page(() => import('./pages/product/ProductPage'), 'ProductPage'),
  },
  { path: '/courses/:course', public: true, ...page(() => import('./pages/course/CoursePage'), 'CoursePage') },
  {
    path: '/courses/:course/lessons/:lesson',
    public: true,
    ...page(() => import('./pages/lesson/LessonPage'), 'LessonPage'),
  },
  { path: '/invites/:couponId', public: true, ...page(() => import('./pages/InvitePage'), 'InvitePage') },
  {
    path: '/membership-seats/:code',
    public: false,
    ...page(() => import('./pages/subscriptions/TakeSeatPage'), 'TakeSeatPage'),
  },
  {
    path: '/certificates/:id',
    public: true,
    ...page(() => import('./pages/certificate/CertificatePage'), 'CertificatePage'),
  },
  { path: '/terms', public: true, ...page(() => import('./pages/school/TermsPage'), 'TermsPage') },
  { path: '/privacy', public: true, ...page(() => import('./pages/school/PrivacyPage'), 'PrivacyPage') },
  { path: '/contact', public: true, ...page(() => import('./pages/school/ContactPage'), 'ContactPage') },
  { path: '/search', public: false, ...page(() => import('./search/SearchPage'), 'SearchPage') },
  { path: '/learning', public: false, ...page(() => import('./pages/MyLearningPage'), 'MyLearningPage') },
  { path: '/bookmarks', public: false, ...page(() => import('./pages/BookmarksPage'), 'BookmarksPage') },
  { path: '/settings', public: false, ...page(() => import('./pages/SettingsPage'), 'SettingsPage') },
  {
    path: '/account-deleted',
    public: false,
    ...page(() => import('./pages/settings/AccountDeletedPage'), 'AccountDeletedPage'),
  },
  { path: '/login', public: false, ...page(() => import('./pages/LoginPage'), 'LoginPage') },
  { path: '/login/continue', public: false, ...page(() => import('./pages/FinishSignInPage'), 'FinishSignInPage') },
  { path: '/activate', public: false, ...page(() => import('./pages/ActivateDevicePage'), 'ActivateDevicePage') },
  { path: '/devices', public: false, ...page(() => import('./pages/MyDevicesPage'), 'MyDevicesPage') },
  { path: '/purchases', public: false, ...page(() => import('./pages/MyPurchasesPage'), 'MyPurchasesPage') },
  {
    path: '/subscriptions',
    public: false,
    ...page(() => import('./pages/subscriptions/SubscriptionsPage'), 'SubscriptionsPage'),
  },
  { path: '/invoices', public: false, ...page(() => import('./pages/InvoicesPage'), 'InvoicesPage') },
  { path: '/invoices/:id', public: false, ...page(() => import('./pages/InvoicePage'), 'InvoicePage') },
  {
    path: '/earnings',
    public: false,
    ...page(() => import('./pages/earnings/EarningsPage'), 'EarningsPage'),
  },
  { path: '/thanks', public: false, ...page(() => import('./pages/ThanksPage'), 'ThanksPage') },
  { path: '/teams/:purchaseId', public: false, ...page(() => import('./pages/team/TeamPage'), 'TeamPage') },
  { path: '/unsubscribe', public: false, ...page(() => import('./pages/UnsubscribePage'), 'UnsubscribePage') },
  {
    path: '/waitlist/leave',
    public: false,
    ...page(() => import('./pages/WaitlistLeavePage'), 'WaitlistLeavePage'),
  },
  {
    path: '/transfers/:transferId',
    public: false,
    ...page(() => import('./pages/AcceptTransferPage'), 'AcceptTransferPage'),
  },
];

/** The route that shows `pathname`; null for an address no route knows (the page-not-found page). */
export function routeFor(pathname: string): (typeof routes)[number] | null {
  // regexparam's parse is wouter's own pattern parser (its default), so this matches as <Switch> does.
  return routes.find((route) => matchRoute(parse, route.path, pathname)[0]) ?? null;
}

/**
 * The whole storefront. `ssrPath` (path and query) is the address the server renders; the browser reads its own.
 */
export function App({ ssrPath }: { ssrPath?: string }) {
  return (
    <StrictMode>
      <SessionProvider>
        <Router aroundNav={storefrontNav} ssrPath={ssrPath}>
          <Layout>
            <Switch>
              {routes.map(({ path, Page }) => (
                <Route key={path} path={path} component={Page} />
              ))}
              <Route>
                <NotFoundPage />
              </Route>
            </Switch>
          </Layout>
        </Router>
      </SessionProvider>
    </StrictMode>
  );
}
