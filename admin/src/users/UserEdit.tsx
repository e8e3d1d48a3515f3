import type { UserUpdate as UserUpdateBody } from '@contract/admin/schemas/identity';
import { Alert } from '@mui/material';
import {
  CheckboxGroupInput,
  DateField,
  Edit,
  Labeled,
  SaveButton,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  maxLength,
  useNotify,
  usePermissions,
  useRedirect,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { AvatarInput } from '../media/ImageUploadInput';
import { isAdmin } from '../permissions';
import { ROLE_CHOICES } from './choices';
import type { z } from 'zod';
import type { User } from './types';

/** The only keys PUT /api/admin/users/:id accepts (the API's schema). */
export type UserUpdate = z.input<typeof UserUpdateBody>;

/** Keeps only what the API accepts (an emptied name or bio: none); roles only for admins (the API refuses them from others). */
export function toUserUpdate(data: RaRecord, admin: boolean): UserUpdate {
  const name = typeof data.name === 'string' ? data.name.trim() : null;
  const bio = typeof data.bio === 'string' ? data.bio.trim() : null;
  const update: UserUpdate = { name: name || null, bio: bio || null };
  if (admin && Array.isArray(data.roles)) update.roles = data.roles as User['roles'];
  return update;
}

function UserEditToolbar() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}

export function UserEdit() {
  const { permissions } = usePermissions();
  const admin = isAdmin(permissions);
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  return (
    <Edit
      mutationMode="pessimistic"
      // The avatar goes apart, as a file (admin/src/media/imageUploads.ts), after the fields toUserUpdate keeps.
      transform={(data: RaRecord) => ({ ...toUserUpdate(data, admin), avatarKey: data.avatarKey })}
      mutationOptions={{
        onSuccess: (user: User) => {
          notify('resources.users.saved', { type: 'success', messageArgs: { who: user.name || user.email } });
          redirect('show', 'users', user.id);
        },
      }}
    >
      <SimpleForm toolbar={<UserEditToolbar />} warnWhenUnsavedChanges>
        <Labeled label="resources.users.fields.email">
          <TextField source="email" />
        </Labeled>
        <TextInput source="name" validate={maxLength(200)} helperText="resources.users.help.name" />
        <TextInput
          source="bio"
          validate={maxLength(1000)}
          multiline
          minRows={3}
          fullWidth
          helperText="resources.users.help.bio"
        />
        <AvatarInput />
        {admin ? (
          <CheckboxGroupInput source="roles" choices={ROLE_CHOICES} helperText="resources.users.help.roles" />
        ) : (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('resources.users.rolesAdminOnly')}
          </Alert>
        )}
        <Labeled label="resources.users.fields.createdAt">
          <DateField source="createdAt" showTime />
        </Labeled>
      </SimpleForm>
    </Edit>
  );
}
