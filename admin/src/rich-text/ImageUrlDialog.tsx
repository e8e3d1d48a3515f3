import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';

interface ImageUrlDialogProps {
  open: boolean;
  onClose: () => void;
  onInsert: (image: { src: string; alt: string }) => void;
}

/**
 * The API keeps only http(s) image URLs; anything else is refused here, before it is silently dropped there.
 * Answers the catalog key of the problem.
 */
export function imageUrlError(url: string): string | undefined {
  if (!url.trim()) return 'console.content.image.missing';
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'console.content.image.scheme';
  } catch {
    return 'console.content.image.invalid';
  }
  return undefined;
}

/** Asks for an image's URL and alternative text; images are referenced by URL, never uploaded or inlined. */
export function ImageUrlDialog({ open, onClose, onInsert }: ImageUrlDialogProps) {
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [touched, setTouched] = useState(false);
  const translate = useTranslate();
  const error = touched ? imageUrlError(src) : undefined;

  const close = () => {
    setSrc('');
    setAlt('');
    setTouched(false);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // the dialog sits inside react-admin's form: never submit that one
    setTouched(true);
    if (imageUrlError(src)) return;
    onInsert({ src: src.trim(), alt: alt.trim() });
    close();
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="rich-text-image-dialog-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="rich-text-image-dialog-title">{translate('console.content.image.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('console.content.image.help')}</DialogContentText>
          <TextField
            autoFocus
            margin="normal"
            label={translate('console.content.image.url')}
            type="url"
            fullWidth
            required
            value={src}
            onChange={(event) => setSrc(event.target.value)}
            onBlur={() => setTouched(true)}
            error={Boolean(error)}
            helperText={error ? translate(error) : 'https://…'}
          />
          <TextField
            margin="normal"
            label={translate('console.content.image.alt')}
            fullWidth
            value={alt}
            onChange={(event) => setAlt(event.target.value)}
            helperText={translate('console.content.image.altHelp')}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('console.common.cancel')}</Button>
          <Button type="submit" variant="contained">
            {translate('console.content.image.insert')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
