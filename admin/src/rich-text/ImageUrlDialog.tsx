import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';

interface ImageUrlDialogProps {
  open: boolean;
  onClose: () => void;
  onInsert: (image: { src: string; alt: string }) => void;
}

/** The API keeps only http(s) image URLs; anything else is refused here, before it is silently dropped there. */
export function imageUrlError(url: string): string | undefined {
  if (!url.trim()) return 'Enter the address of the image.';
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'Use an http or https address.';
  } catch {
    return 'Enter a full address, such as https://example.com/diagram.png.';
  }
  return undefined;
}

/** Asks for an image's URL and alternative text; images are referenced by URL, never uploaded or inlined. */
export function ImageUrlDialog({ open, onClose, onInsert }: ImageUrlDialogProps) {
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [touched, setTouched] = useState(false);
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
        <DialogTitle id="rich-text-image-dialog-title">Insert an image</DialogTitle>
        <DialogContent>
          <DialogContentText>Images are shown from their address; upload them elsewhere first.</DialogContentText>
          <TextField
            autoFocus
            margin="normal"
            label="Image URL"
            type="url"
            fullWidth
            required
            value={src}
            onChange={(event) => setSrc(event.target.value)}
            onBlur={() => setTouched(true)}
            error={Boolean(error)}
            helperText={error ?? 'https://…'}
          />
          <TextField
            margin="normal"
            label="Alternative text"
            fullWidth
            value={alt}
            onChange={(event) => setAlt(event.target.value)}
            helperText="Describes the image for people who cannot see it."
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained">
            Insert image
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
