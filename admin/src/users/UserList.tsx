import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import { Chip } from '@mui/material';
import { FunctionField, SelectInput, useTranslate } from 'react-admin';
import { date, text } from '../common/columns';
import { searchFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import { ROLE_CHOICES } from './choices';
import { RolesField } from './RolesField';
import type { User } from './types';

/** A blocked or deleted person stands out in the list (their page says why, or since when). */
function BlockedChip({ user }: { user: User }) {
  const translate = useTranslate();
  if (user.deletedAt) return <Chip size="small" label={translate('resources.users.deleteAccount.chip')} />;
  return user.blockedAt ? <Chip size="small" color="error" label={translate('resources.users.blocked.chip')} /> : null;
}

const filters = [
  searchFilter('resources.users.search'),
  <SelectInput key="roles" source="roles" label="resources.users.fields.role" choices={ROLE_CHOICES} alwaysOn />,
];

export function UserList() {
  return (
    <RecordList filters={filters} icon={PeopleAltOutlinedIcon} exporter>
      {text('email', { sortable: true })}
      {text('name', { sortable: true, emptyText: '—' })}
      <RolesField label="resources.users.fields.roles" sortable={false} />
      <FunctionField<User>
        label="resources.users.fields.blockedAt"
        sortable={false}
        render={(user) => <BlockedChip user={user} />}
      />
      {date('createdAt')}
    </RecordList>
  );
}
