import { SaveButton, Toolbar } from 'react-admin';

/** An edit form's toolbar without a delete button: records that are never deleted from the console. */
export function SaveOnlyToolbar() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}
