/** Rich text in the console: an input (the editor loads lazily) and a field that shows stored HTML safely. */
export { RichTextInput, type RichTextInputProps } from './RichTextInput';
export { RichTextField, richTextSx, type RichTextFieldProps } from './RichTextField';
export { safeHtml } from './safeHtml';
