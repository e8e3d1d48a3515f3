import { Admin, Resource } from 'react-admin';
import { LoginPage } from './auth/LoginPage';
import { authProvider } from './authProvider';
import { Dashboard } from './Dashboard';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n';
import { ConsoleLayout } from './layout';
import { rolesOf } from './permissions';
import { CONSOLE_RESOURCES, canRead, canWrite } from './registry';

/** The resources the signed-in roles may read; write screens only where they may write. The API enforces both. */
function resourcesFor(permissions: unknown) {
  const roles = rolesOf(permissions);
  return CONSOLE_RESOURCES.filter((r) => canRead(roles, r)).map((r) => {
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
      disableTelemetry
      requireAuth
    >
      {resourcesFor}
    </Admin>
  );
}
