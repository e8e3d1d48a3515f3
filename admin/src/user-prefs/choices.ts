export const PREF_TYPE_CHOICES = [
  { id: 'global', name: 'Global' },
  { id: 'local', name: 'Per content' },
];
