import { lazy, StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Router, Switch } from 'wouter';
import { applyDisplay, rememberedDisplay } from './display';
import { Layout } from './Layout';
import { storefrontNav } from './navigation';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SessionProvider } from './session';
import './styles.css';

// Before the first paint: no flash of the light theme for someone who chose dark.
applyDisplay(rememberedDisplay());

/**
 * Every page but the home page is its own chunk, loaded when first visited (the Layout shows "Loading the page…"
 * meanwhile): the home page's JavaScript stays small.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await load())[name] }));
}

/** The first route whose path (wouter's patterns: "/teams/:purchaseId") matches the address shows its page. */
const routes: { path: string; Page: ComponentType }[] = [
  { path: '/', Page: HomePage },
  { path: '/products/:slugOrId', Page: page(() => import('./pages/product/ProductPage'), 'ProductPage') },
  { path: '/courses/:course', Page: page(() => import('./pages/course/CoursePage'), 'CoursePage') },
  { path: '/courses/:course/lessons/:lesson', Page: page(() => import('./pages/lesson/LessonPage'), 'LessonPage') },
  { path: '/learning', Page: page(() => import('./pages/MyLearningPage'), 'MyLearningPage') },
  { path: '/bookmarks', Page: page(() => import('./pages/BookmarksPage'), 'BookmarksPage') },
  { path: '/settings', Page: page(() => import('./pages/SettingsPage'), 'SettingsPage') },
  { path: '/login', Page: page(() => import('./pages/LoginPage'), 'LoginPage') },
  { path: '/login/continue', Page: page(() => import('./pages/FinishSignInPage'), 'FinishSignInPage') },
  { path: '/activate', Page: page(() => import('./pages/ActivateDevicePage'), 'ActivateDevicePage') },
  { path: '/devices', Page: page(() => import('./pages/MyDevicesPage'), 'MyDevicesPage') },
  { path: '/purchases', Page: page(() => import('./pages/MyPurchasesPage'), 'MyPurchasesPage') },
  { path: '/invoices/:id', Page: page(() => import('./pages/InvoicePage'), 'InvoicePage') },
  { path: '/thanks', Page: page(() => import('./pages/ThanksPage'), 'ThanksPage') },
  { path: '/teams/:purchaseId', Page: page(() => import('./pages/team/TeamPage'), 'TeamPage') },
  { path: '/invites/:couponId', Page: page(() => import('./pages/InvitePage'), 'InvitePage') },
  { path: '/transfers/:transferId', Page: page(() => import('./pages/AcceptTransferPage'), 'AcceptTransferPage') },
];

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <Router aroundNav={storefrontNav}>
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
  </StrictMode>,
);
