import { Divider, ListSubheader } from '@mui/material';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import SavingsIcon from '@mui/icons-material/Savings';
import SchoolIcon from '@mui/icons-material/School';
import { Menu, usePermissions, useResourceDefinitions, useSidebarState, useTranslate } from 'react-admin';
import { canEditSchool, canSeeFinance, canSeeRefundsReport, rolesOf } from '../permissions';
import { CONSOLE_RESOURCES, canRead, type ConsoleResource, type MenuGroup } from '../registry';

/** The menu's sections, in order. */
export const MENU_GROUPS: readonly MenuGroup[] = [
  'Catalog',
  'Sales',
  'Payments',
  'Tax',
  'People',
  'Learning',
  'System',
];

/** The registry's resources the signed-in roles may read, with a list screen and a menu entry, by section. */
export function menuSections(roles: Parameters<typeof canRead>[0], registered: (name: string) => boolean) {
  return MENU_GROUPS.map((group) => ({
    group,
    resources: CONSOLE_RESOURCES.filter(
      (r: ConsoleResource) => r.group === group && !r.hidden && r.list && canRead(roles, r) && registered(r.name),
    ),
  })).filter((section) => section.resources.length > 0);
}

/**
 * Dashboard first, then Finance (finance and admins), then one titled section per group (Catalog, Sales, Payments, Tax, People, Learning, System). The section
 * titles are separators, not menu items, so keyboard navigation and the menu's items stay the resources themselves.
 */
export function ConsoleMenu() {
  const { permissions } = usePermissions();
  const definitions = useResourceDefinitions();
  const translate = useTranslate();
  const [open] = useSidebarState();
  const sections = menuSections(rolesOf(permissions), (name) => Boolean(definitions[name]?.hasList));

  return (
    <Menu>
      <Menu.DashboardItem />
      {canSeeFinance(permissions) ? (
        <Menu.Item to="/finance" primaryText={translate('console.menu.Finance')} leftIcon={<AccountBalanceIcon />} />
      ) : null}
      {canSeeFinance(permissions) ? (
        <Menu.Item
          to="/payout-balances"
          primaryText={translate('console.menu.PayoutBalances')}
          leftIcon={<SavingsIcon />}
        />
      ) : null}
      {canSeeFinance(permissions) ? (
        <Menu.Item
          to="/reconciliation"
          primaryText={translate('console.menu.Reconciliation')}
          leftIcon={<FactCheckIcon />}
        />
      ) : null}
      {canSeeRefundsReport(permissions) ? (
        <Menu.Item
          to="/refunds-report"
          primaryText={translate('console.menu.RefundsReport')}
          leftIcon={<AssignmentReturnIcon />}
        />
      ) : null}
      {canEditSchool(permissions) ? (
        <Menu.Item to="/school" primaryText={translate('console.school.menu')} leftIcon={<SchoolIcon />} />
      ) : null}
      {sections.flatMap(({ group, resources }) => {
        const title = translate(`console.menu.${group}`, { _: group });
        return [
          open ? (
            <ListSubheader
              key={`section-${group}`}
              role="separator"
              aria-label={title}
              disableSticky
              sx={{
                lineHeight: 2.5,
                mt: 1,
                bgcolor: 'transparent',
                textTransform: 'uppercase',
                fontSize: 12,
                letterSpacing: 0.5,
              }}
            >
              {title}
            </ListSubheader>
          ) : (
            <Divider key={`section-${group}`} role="separator" aria-label={title} sx={{ my: 0.5 }} />
          ),
          ...resources.map((r) => <Menu.ResourceItem key={r.name} name={r.name} />),
        ];
      })}
    </Menu>
  );
}
