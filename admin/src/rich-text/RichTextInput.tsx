import { Component, Suspense, lazy, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormHelperText,
  FormLabel,
  Typography,
} from '@mui/material';
import {
  InputHelperText,
  useInput,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
  type InputProps,
} from 'react-admin';

/** The editor and its libraries (Tiptap, ProseMirror, mui-tiptap): a separate chunk, fetched when a form needs it. */
const loadBodyEditor = () => import('./BodyEditor');
const BodyEditor = lazy(loadBodyEditor);

/** The editor failed to load: say so, and offer a reload. */
function EditorFailed() {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => window.location.reload()}>
          {translate('console.content.editor.reload')}
        </Button>
      }
    >
      {translate('console.content.editor.failed')}
    </Alert>
  );
}

class EditorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <EditorFailed /> : this.props.children;
  }
}

function EditorLoading({ label }: { label: string }) {
  const translate = useTranslate();
  return (
    <Box
      role="status"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        minHeight: 300,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        px: 2,
      }}
    >
      <CircularProgress size={20} aria-hidden />
      <Typography variant="body2" color="text.secondary">
        {translate('console.content.editor.loading', { label: label.toLowerCase() })}
      </Typography>
    </Box>
  );
}

export type RichTextInputProps = Pick<InputProps, 'source' | 'validate' | 'defaultValue' | 'disabled' | 'readOnly'> & {
  label?: string;
  helperText?: string;
};

/**
 * A react-admin input holding HTML, edited with mui-tiptap. The editable area is a textbox named after the
 * label ("Body"); the editor code loads on first render of this input.
 */
export function RichTextInput({
  source,
  label,
  helperText,
  validate,
  defaultValue,
  disabled,
  readOnly,
}: RichTextInputProps) {
  const resource = useResourceContext();
  const translateLabel = useTranslateLabel();
  const { id, field, fieldState, isRequired } = useInput({
    source,
    validate,
    defaultValue,
    format: (v: unknown) => (typeof v === 'string' ? v : ''),
  });
  const text = String(translateLabel({ label, source, resource }) ?? source);
  const helperId = `${id}-helper-text`;
  const error = fieldState.error?.message;
  return (
    <FormControl fullWidth error={fieldState.invalid} margin="dense" sx={{ mb: 2 }}>
      <FormLabel id={`${id}-label`} component="div" sx={{ mb: 0.5 }} required={isRequired}>
        {text}
      </FormLabel>
      <EditorBoundary>
        <Suspense fallback={<EditorLoading label={text} />}>
          <BodyEditor
            value={field.value as string}
            onChange={field.onChange}
            onBlur={field.onBlur}
            label={text}
            describedBy={error || helperText ? helperId : undefined}
            invalid={fieldState.invalid}
            disabled={disabled || readOnly}
          />
        </Suspense>
      </EditorBoundary>
      {(error || helperText) && (
        // Translated as react-admin's own inputs do: helper texts and validation messages are keys.
        <FormHelperText id={helperId}>
          <InputHelperText error={error} helperText={helperText} />
        </FormHelperText>
      )}
    </FormControl>
  );
}
