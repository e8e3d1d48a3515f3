import englishMessages from 'ra-language-english';

/** react-admin's own English, with the console's words for its notifications (the frame's first phrases too). */
export const reactAdmin = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    notification: {
      ...englishMessages.ra.notification,
      created: 'Created',
      updated: 'Saved |||| %{smart_count} saved',
      deleted: 'Deleted |||| %{smart_count} deleted',
    },
  },
};
