import { useEffect, useId, useRef, useState } from 'react';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { Alert, Box, Button, Divider, IconButton, LinearProgress, Stack, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import type { ContentResource } from '../content-resources/types';
import { formatBytes, formatBytesPair } from '../media/bytes';
import { canWrite } from '../permissions';
import { deleteAttachment, listAttachments, reorderAttachments, uploadAttachment, type Attachment } from './api';

const words = (name: string) => `console.attachments.${name}`;

type Upload = { fileName: string; sent: number; total: number; controller: AbortController };

/**
 * On a lesson's edit page, below the form (its changes do not wait for Save): the files its readers may download.
 * Add one (a bar shows how far the upload got), move one up or down, delete one. Nothing for other content.
 */
export function LessonAttachmentsPanel() {
  const record = useRecordContext<ContentResource>();
  if (record?.type !== 'lesson') return null;
  return (
    <>
      <Divider />
      <AttachmentsPanel lessonId={String(record.id)} />
    </>
  );
}

function AttachmentsPanel({ lessonId }: { lessonId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { permissions } = usePermissions();
  const writable = canWrite(permissions, 'content-resources');
  const headingId = useId();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<Attachment[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    listAttachments(lessonId).then(
      (list) => current && setFiles(list),
      (error: Error) => current && setProblem(error.message),
    );
    return () => {
      current = false;
    };
  }, [lessonId]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const send = async (file: File) => {
    const controller = new AbortController();
    setProblem(null);
    setUpload({ fileName: file.name, sent: 0, total: file.size, controller });
    try {
      const added = await uploadAttachment(
        lessonId,
        file,
        (sent, total) => setUpload((now) => (now ? { ...now, sent, total } : now)),
        controller.signal,
      );
      setFiles((list) => [...(list ?? []), added]);
      notify(translate(words('added'), { name: added.fileName }), { type: 'success' });
    } catch (error) {
      if ((error as Error).name !== 'AbortError') setProblem((error as Error).message);
    } finally {
      setUpload(null);
      if (input.current) input.current.value = '';
    }
  };

  const move = (index: number, by: -1 | 1) =>
    act(async () => {
      const ids = (files ?? []).map((f) => f.id);
      [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
      setFiles(await reorderAttachments(lessonId, ids));
    });

  const remove = (file: Attachment) =>
    act(async () => {
      await deleteAttachment(file.id);
      setFiles((list) => (list ?? []).filter((f) => f.id !== file.id));
      notify(translate(words('deleted'), { name: file.fileName }), { type: 'info' });
    });

  const percent = upload?.total ? Math.floor((upload.sent / upload.total) * 100) : 0;
  const [sent, total] = upload ? formatBytesPair(upload.sent, upload.total) : ['', ''];

  return (
    <Box component="section" className="lesson-attachments-panel" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {translate(words('title'))}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate(words('help'))}
      </Typography>
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      {files === null && !problem ? <LinearProgress aria-label={translate(words('loading'))} /> : null}
      {files?.length === 0 ? <Typography variant="body2">{translate(words('none'))}</Typography> : null}
      {files?.length ? (
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={translate(words('title'))}>
          {files.map((file, index) => (
            <Box
              component="li"
              key={file.id}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}
            >
              <AttachFileIcon fontSize="small" aria-hidden />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }} dir="auto">
                  {file.fileName}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatBytes(Number(file.sizeBytes))}
                </Typography>
              </Box>
              {writable ? (
                <>
                  <IconButton
                    size="small"
                    disabled={busy || index === 0}
                    onClick={() => void move(index, -1)}
                    aria-label={translate(words('moveUp'), { name: file.fileName })}
                  >
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    disabled={busy || index === files.length - 1}
                    onClick={() => void move(index, 1)}
                    aria-label={translate(words('moveDown'), { name: file.fileName })}
                  >
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    disabled={busy}
                    onClick={() => void remove(file)}
                    aria-label={translate(words('delete'), { name: file.fileName })}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </>
              ) : null}
            </Box>
          ))}
        </Box>
      ) : null}
      {writable ? (
        <Box sx={{ mt: 2 }}>
          {upload ? (
            <Box role="status" aria-live="polite">
              <Typography variant="body2" sx={{ mb: 1, wordBreak: 'break-word' }}>
                {translate(words('uploading'), { name: upload.fileName })}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={percent}
                aria-label={translate(words('uploading'), { name: upload.fileName })}
                sx={{ height: 8, borderRadius: 1 }}
              />
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mt: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  {translate(words('progress'), { percent, sent, total })}
                </Typography>
                <Button size="small" onClick={() => upload.controller.abort()}>
                  {translate(words('cancel'))}
                </Button>
              </Stack>
            </Box>
          ) : (
            <>
              <input
                id={inputId}
                ref={input}
                type="file"
                // Out of sight but focusable; its label is the visible button.
                style={visuallyHidden}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void send(file);
                }}
              />
              <Button component="label" htmlFor={inputId} variant="outlined" startIcon={<AttachFileIcon />}>
                {translate(words('add'))}
              </Button>
            </>
          )}
        </Box>
      ) : null}
    </Box>
  );
}
