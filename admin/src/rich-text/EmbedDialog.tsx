import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { EMBED_TITLE_MAX, embedSrcFromLink } from '../../../api/src/shared/embeds';

const words = (name: string) => `console.embeds.${name}`;

interface EmbedDialogProps {
  open: boolean;
  onClose: () => void;
  onInsert: (embed: { src: string; title: string }) => void;
}

/**
 * Asks for an embed's link and title: the link as people copy it (a YouTube watch page, a Vimeo page, a sandbox),
 * turned into the player's address by the shared list, or refused here as the API's sanitizer would drop it.
 */
export function EmbedDialog({ open, onClose, onInsert }: EmbedDialogProps) {
  const translate = useTranslate();
  const [link, setLink] = useState('');
  const [title, setTitle] = useState('');
  const [touched, setTouched] = useState(false);
  const src = embedSrcFromLink(link);
  const linkError = touched && !src ? translate(words('refused')) : null;
  const titleError = touched && !title.trim() ? translate(words('nameRequired')) : null;

  const close = () => {
    setLink('');
    setTitle('');
    setTouched(false);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // inside react-admin's form: never submit that one
    setTouched(true);
    if (!src || !title.trim()) return;
    onInsert({ src, title: title.trim() });
    close();
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="rich-text-embed-dialog-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="rich-text-embed-dialog-title">{translate(words('title'))}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate(words('linkHelp'))}</DialogContentText>
          <TextField
            autoFocus
            margin="normal"
            label={translate(words('link'))}
            type="url"
            fullWidth
            required
            value={link}
            onChange={(event) => setLink(event.target.value)}
            error={Boolean(linkError)}
            helperText={linkError ?? 'https://…'}
          />
          <TextField
            margin="normal"
            label={translate(words('name'))}
            fullWidth
            required
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            error={Boolean(titleError)}
            helperText={titleError ?? translate(words('nameHelp'))}
            slotProps={{ htmlInput: { maxLength: EMBED_TITLE_MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate(words('cancel'))}</Button>
          <Button type="submit" variant="contained">
            {translate(words('save'))}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
