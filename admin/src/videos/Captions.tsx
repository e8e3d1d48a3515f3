import { useId, useRef, useState, type FormEvent } from 'react';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormHelperText,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import type { ConsoleDataProvider } from '../dataProvider';
import type { Video } from './types';

const words = (name: string) => `resources.videos.captions.${name}`;

/** The API's limit (api/src/video/webvtt.ts MAX_VTT_BYTES): a larger file is refused here before it is read. */
const MAX_VTT_BYTES = 1024 * 1024;

type CaptionField = 'language' | 'label' | 'vtt';
type FieldErrors = Partial<Record<CaptionField, string>>;

interface CaptionsProps {
  video: Video;
  writable: boolean;
  /** A write's answer: the video with its captions now. */
  onChange(video: Video): void;
}

function CaptionRows({ video, writable, onChange }: CaptionsProps) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const remove = useMutation({
    mutationFn: ({ language }: { language: string; label: string }) =>
      dataProvider.deleteVideoCaption(video.id, language),
    onSuccess: ({ data }, { label }) => {
      notify(words('removed'), { type: 'success', messageArgs: { label } });
      onChange(data);
    },
    onError: (error) => notify(problemOf(error, translate(words('removeFailed'))).message, { type: 'error' }),
  });
  if (!video.captions.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(words('none'))}
      </Typography>
    );
  }
  return (
    // A fixed layout: a long label wraps in its cell instead of widening the page on a phone.
    <Box sx={{ maxWidth: 640 }}>
      <Table size="small" aria-label={translate(words('title'))} sx={{ tableLayout: 'fixed', width: '100%' }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: '25%' }}>{translate(words('language'))}</TableCell>
            <TableCell>{translate(words('label'))}</TableCell>
            <TableCell align="right" sx={{ width: '15%' }}>
              {translate(words('cues'))}
            </TableCell>
            {writable ? <TableCell sx={{ width: narrow ? 56 : 120 }} /> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {video.captions.map((caption) => (
            <TableRow key={caption.language}>
              <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>{caption.language}</TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{caption.label}</TableCell>
              <TableCell align="right">{caption.cueCount}</TableCell>
              {writable ? (
                <TableCell align="right">
                  {narrow ? (
                    <IconButton
                      size="small"
                      color="error"
                      aria-label={translate(words('removeLabel'), { label: caption.label })}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(caption)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  ) : (
                    <Button
                      size="small"
                      color="error"
                      startIcon={<DeleteOutlineIcon />}
                      aria-label={translate(words('removeLabel'), { label: caption.label })}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(caption)}
                    >
                      {translate(words('remove'))}
                    </Button>
                  )}
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * Adds a language's captions: its tag, the label the player's menu shows, and a .vtt file read here and sent as
 * text (PUT /api/admin/videos/:id/captions/:language). The API checks the WebVTT and says on which line it broke;
 * that shows under the file, as the other fields' problems show under them.
 */
function AddCaption({ video, onChange }: Omit<CaptionsProps, 'writable'>) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const fileId = useId();
  const fileHelpId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [language, setLanguage] = useState('');
  const [label, setLabel] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: async () => {
      const vtt = await file!.text();
      return dataProvider.putVideoCaption(video.id, language.trim(), { label: label.trim(), vtt });
    },
    onSuccess: ({ data }) => {
      notify(words('added'), { type: 'success', messageArgs: { label: label.trim() } });
      setLanguage('');
      setLabel('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      onChange(data);
    },
    onError: (error) => {
      const problem = problemOf(error, translate(words('failed')));
      const onFields: FieldErrors = {};
      for (const field of ['language', 'label', 'vtt'] as const) {
        if (problem.errors[field]) onFields[field] = problem.errors[field];
      }
      setErrors(onFields);
      setFormError(Object.keys(onFields).length ? null : problem.message);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: FieldErrors = {};
    if (!language.trim()) missing.language = translate(words('required'));
    if (!label.trim()) missing.label = translate(words('required'));
    if (!file) missing.vtt = translate(words('fileRequired'));
    else if (file.size > MAX_VTT_BYTES) missing.vtt = translate(words('tooLarge'));
    setErrors(missing);
    setFormError(null);
    if (!Object.keys(missing).length) add.mutate();
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={translate(words('add'))}>
      {formError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {formError}
        </Alert>
      ) : null}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label={translate(words('language'))}
          value={language}
          onChange={(event) => setLanguage(event.target.value)}
          error={Boolean(errors.language)}
          helperText={errors.language ?? translate(words('languageHelp'))}
          required
          size="small"
          sx={{ width: { xs: '100%', md: 220 } }}
          slotProps={{ htmlInput: { maxLength: 35, autoCapitalize: 'off', spellCheck: false } }}
        />
        <TextField
          label={translate(words('label'))}
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          error={Boolean(errors.label)}
          helperText={errors.label ?? translate(words('labelHelp'))}
          required
          size="small"
          sx={{ width: { xs: '100%', md: 220 } }}
          slotProps={{ htmlInput: { maxLength: 60 } }}
        />
        <Box sx={{ minWidth: 0, maxWidth: { md: 280 } }}>
          <Button
            component="label"
            htmlFor={fileId}
            role={undefined}
            tabIndex={-1}
            variant="outlined"
            color={errors.vtt ? 'error' : 'primary'}
            sx={{ '&:focus-within': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 } }}
          >
            {translate(words('choose'))}
            <input
              ref={fileInput}
              id={fileId}
              type="file"
              accept=".vtt,text/vtt"
              aria-describedby={fileHelpId}
              aria-invalid={Boolean(errors.vtt)}
              style={{
                position: 'absolute',
                width: 1,
                height: 1,
                overflow: 'hidden',
                clip: 'rect(0 0 0 0)',
                opacity: 0,
              }}
              onChange={(event) => {
                setFile(event.currentTarget.files?.[0] ?? null);
                setErrors(({ vtt: _vtt, ...others }) => others);
              }}
            />
          </Button>
          <FormHelperText id={fileHelpId} error={Boolean(errors.vtt)} sx={{ wordBreak: 'break-word' }}>
            {errors.vtt ?? (file ? file.name : translate(words('noFile')))}
          </FormHelperText>
        </Box>
        <Button
          type="submit"
          variant="contained"
          disabled={add.isPending}
          startIcon={add.isPending ? <CircularProgress size={14} color="inherit" aria-hidden /> : undefined}
        >
          {translate(add.isPending ? words('adding') : words('add'))}
        </Button>
      </Stack>
    </Box>
  );
}

/** A video's captions, one row per language with its label and cue count; writers add and remove them here. */
export function Captions({ video, writable, onChange }: CaptionsProps) {
  const translate = useTranslate();
  return (
    <Stack component="section" spacing={1.5} aria-label={translate(words('title'))}>
      <Typography variant="subtitle1" component="h3">
        {translate(words('title'))}
      </Typography>
      <CaptionRows video={video} writable={writable} onChange={onChange} />
      {writable ? <AddCaption video={video} onChange={onChange} /> : null}
    </Stack>
  );
}
