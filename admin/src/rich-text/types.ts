/** What the lazily loaded editor needs from its react-admin input. */
export interface BodyEditorProps {
  /** Initial HTML (later changes are not pushed back into the editor). */
  value: string;
  /** The new HTML, or '' when the document is empty. */
  onChange: (html: string) => void;
  onBlur: () => void;
  /** The editable area's accessible name. */
  label: string;
  /** Id of the helper or error text. */
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
}
