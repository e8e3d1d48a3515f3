import type { PrefsScope } from '@contract/identity/schemas';

/** The scopes preferences are stored under (the API's PrefsScope); no value list of them is shared, so each is checked. */
export const PREF_TYPE_CHOICES = [
  { id: 'global', name: 'Global' },
  { id: 'local', name: 'Per content' },
] satisfies { id: PrefsScope['type']; name: string }[];
