import { DeleteButton, SaveButton, Toolbar } from 'react-admin';

interface SaveAndDeleteToolbarProps {
  /** The delete button's words when it is not "Delete" (e.g. "Remove link"): a key or text. */
  label?: string;
  confirmTitle: string;
  confirmContent: string;
  /** False hides the delete button (a role that may edit but not delete). */
  deletable?: boolean;
}

/** An edit form's Save, and on the right a delete that asks first and waits for the API's answer. */
export function SaveAndDeleteToolbar({ deletable = true, ...confirm }: SaveAndDeleteToolbarProps) {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton />
      {deletable ? <DeleteButton mutationMode="pessimistic" {...confirm} /> : null}
    </Toolbar>
  );
}
