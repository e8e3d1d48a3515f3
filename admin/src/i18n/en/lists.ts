/** What every console list offers: its CSV export, saved filters, bulk actions (under `console.`). */
export const listTools = {
  /** A streamed CSV download's progress (a list's export, finance's exports). */
  csv: {
    running: 'Exporting %{what}… %{progress}',
    progressLabel: 'Exporting %{what}',
    rows: '%{rows} row |||| %{rows} rows',
    rowsOf: '%{rows} of %{total} row |||| %{rows} of %{total} rows',
    rowsOfAbout: '%{rows} of about %{total} row |||| %{rows} of about %{total} rows',
    cancel: 'Cancel',
  },
  lists: {
    export: {
      label: 'Export',
      help: 'Download the rows these filters match, in this order, as CSV',
      done: '%{filename}: %{rows} row exported |||| %{filename}: %{rows} rows exported',
      canceled: 'Export canceled: nothing was saved.',
      failed: 'The export failed: %{message}',
      httpFailed: 'The export failed (HTTP %{status}).',
    },
    saved: {
      label: 'Saved filters',
      none: 'No saved filters on this list yet.',
      save: 'Save current filters…',
      nothingToSave: 'Set some filters first, then save them.',
      dialogTitle: 'Save these filters',
      dialogHelp: 'Only you see them, on any device, here on this list.',
      name: 'Name',
      saveButton: 'Save',
      saved: 'Filters saved as “%{name}”',
      applied: 'Filters “%{name}” applied',
      delete: 'Delete saved filters “%{name}”',
      deleted: 'Saved filters “%{name}” deleted',
    },
    bulk: {
      skipped: '%{smart_count} skipped: %{reasons}',
      failed: 'Nothing was done: %{message}',
      deactivateCoupons: {
        label: 'Deactivate',
        title: 'Deactivate %{smart_count} coupon? |||| Deactivate %{smart_count} coupons?',
        content: 'Their codes stop working at checkout at once; a site-wide sale among them ends. Active ones only.',
        done: '%{smart_count} coupon deactivated. |||| %{smart_count} coupons deactivated.',
      },
      resendEmails: {
        label: 'Resend',
        title: 'Resend %{smart_count} email? |||| Resend %{smart_count} emails?',
        content:
          'Failed emails are queued again; sent ones go out again as a copy. Emails still waiting, without their body, or a sent one-time sign-in link are skipped.',
        done: '%{smart_count} email queued to resend. |||| %{smart_count} emails queued to resend.',
      },
      retryJobs: {
        label: 'Retry',
        title: 'Retry %{smart_count} job? |||| Retry %{smart_count} jobs?',
        content: 'Failed jobs run again; the others are skipped.',
        done: '%{smart_count} job queued to run again. |||| %{smart_count} jobs queued to run again.',
      },
    },
  },
};
