/** Labels of a lesson's files in the console (the panel on its edit page) and of embeds in the body's editor. */
export const attachmentLabels = {
  title: 'Files to download',
  help: 'Slides, code, PDFs and archives (up to 50 MB each). Readers who may open the lesson download them through links that work for a few minutes.',
  loading: 'Loading the files',
  none: 'No files yet.',
  add: 'Add a file',
  uploading: 'Uploading %{name}',
  progress: '%{percent}% — %{sent} of %{total}',
  cancel: 'Cancel',
  added: '%{name} added',
  deleted: '%{name} deleted',
  moveUp: 'Move %{name} up',
  moveDown: 'Move %{name} down',
  delete: 'Delete %{name}',
};

export const embedLabels = {
  insert: 'Embed a video, sandbox or slides',
  title: 'Embed',
  link: 'Link',
  linkHelp: 'A YouTube, Vimeo, CodeSandbox, StackBlitz or Google Slides link.',
  name: 'Title',
  nameHelp: 'What the embed is, for screen readers (required).',
  refused: 'Only YouTube, Vimeo, CodeSandbox, StackBlitz and Google Slides can be embedded, over https.',
  nameRequired: 'Give the embed a title.',
  save: 'Embed',
  cancel: 'Cancel',
  card: 'Embedded %{provider}: %{title}',
};
