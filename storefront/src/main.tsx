import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Layout } from './Layout';
import { AcceptTransferPage } from './pages/AcceptTransferPage';
import { ActivateDevicePage } from './pages/ActivateDevicePage';
import { FinishSignInPage } from './pages/FinishSignInPage';
import { HomePage } from './pages/HomePage';
import { InvitePage } from './pages/InvitePage';
import { InvoicePage } from './pages/InvoicePage';
import { LoginPage } from './pages/LoginPage';
import { MyDevicesPage } from './pages/MyDevicesPage';
import { MyPurchasesPage } from './pages/MyPurchasesPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProductPage } from './pages/product/ProductPage';
import { TeamPage } from './pages/team/TeamPage';
import { ThanksPage } from './pages/ThanksPage';
import { SessionProvider } from './session';
import './styles.css';

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'products/:slugOrId', element: <ProductPage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'login/continue', element: <FinishSignInPage /> },
      { path: 'activate', element: <ActivateDevicePage /> },
      { path: 'devices', element: <MyDevicesPage /> },
      { path: 'purchases', element: <MyPurchasesPage /> },
      { path: 'invoices/:id', element: <InvoicePage /> },
      { path: 'thanks', element: <ThanksPage /> },
      { path: 'teams/:purchaseId', element: <TeamPage /> },
      { path: 'invites/:couponId', element: <InvitePage /> },
      { path: 'transfers/:transferId', element: <AcceptTransferPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);
