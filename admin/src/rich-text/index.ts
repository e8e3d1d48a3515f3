/** Rich text in the console: an input (the editor loads lazily) and a field that shows stored HTML safely. */
export { RichTextInput } from './RichTextInput';
export { RichTextField } from './RichTextField';
