import { AppBar, UserMenu, useGetIdentity, useTranslate } from 'react-admin';

/**
 * react-admin's app bar with its account menu named after what it shows: the default button reads the person's name
 * but is named "Profile", which a speech-input user saying the name cannot reach (WCAG 2.5.3, label in name). The
 * name leads the button's accessible name, on a wide screen (the name shown) and a narrow one (an icon).
 */
export function ConsoleAppBar() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const label = identity?.fullName
    ? translate('console.layout.accountMenu', { name: identity.fullName })
    : translate('console.layout.accountMenuUnnamed');
  return <AppBar userMenu={<UserMenu label={label} />} />;
}
