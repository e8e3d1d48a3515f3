import { Box, Typography } from '@mui/material';
import {
  DateField,
  FunctionField,
  NumberField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  ListButton,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { RetryButton } from './RetryButton';
import { status } from '../common/columns';
import { STATUS_LOOKS } from './choices';
import type { OutboxEmail } from './types';

function EmailTitle() {
  const email = useRecordContext<OutboxEmail>();
  const translate = useTranslate();
  return (
    <>
      {email
        ? translate('console.outbox.showTitle', { to: email.toAddress, subject: email.subject })
        : translate('console.outbox.email')}
    </>
  );
}

function Actions() {
  return (
    <TopToolbar>
      <RetryButton />
      <ListButton />
    </TopToolbar>
  );
}

function Body({ text }: { text: string }) {
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        p: 2,
        bgcolor: 'grey.100',
        borderRadius: 1,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        fontFamily: 'monospace',
        fontSize: 14,
      }}
    >
      {text}
    </Box>
  );
}

/** Why a body says [redacted], or is gone: sign-in links are live credentials, and old bodies are dropped. */
function BodyNote({ email }: { email: OutboxEmail }) {
  const translate = useTranslate();
  if (email.textBody === null) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('console.outbox.bodyDropped')}
      </Typography>
    );
  }
  if (!email.textBody.includes('[redacted]')) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      {translate('console.outbox.linkRedacted')}
    </Typography>
  );
}

/** The HTML body in a sandboxed frame: no scripts run. */
function HtmlBody({ html }: { html: string }) {
  const translate = useTranslate();
  return (
    <Box
      component="iframe"
      title={translate('console.outbox.htmlFrame')}
      sandbox=""
      srcDoc={html}
      sx={{
        width: '100%',
        minHeight: 200,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'common.white',
      }}
    />
  );
}

export function OutboxEmailShow() {
  return (
    <Show actions={<Actions />} title={<EmailTitle />}>
      <SimpleShowLayout>
        <TextField source="subject" />
        <TextField source="toAddress" />
        <TextField source="fromName" emptyText="—" />
        <TextField source="replyTo" emptyText="—" />
        <TextField source="kind" />
        {status(STATUS_LOOKS)}
        <FunctionField<OutboxEmail>
          label="resources.outbox-emails.fields.lastError"
          render={(email) =>
            email.lastError ? (
              <Typography variant="body2" color="error">
                {email.lastError}
              </Typography>
            ) : (
              '—'
            )
          }
        />
        <NumberField source="attempts" />
        <TextField source="transport" emptyText="—" />
        <DateField source="createdAt" label="console.outbox.created" showTime />
        <DateField source="sentAt" showTime emptyText="console.outbox.notSent" />
        <FunctionField<OutboxEmail>
          label="console.outbox.textBody"
          render={(email) => (
            <>
              <BodyNote email={email} />
              {email.textBody !== null && <Body text={email.textBody} />}
            </>
          )}
        />
        <FunctionField<OutboxEmail>
          label="console.outbox.htmlBody"
          render={(email) => (email.htmlBody ? <HtmlBody html={email.htmlBody} /> : '—')}
        />
        <TextField source="id" label="console.outbox.id" />
      </SimpleShowLayout>
    </Show>
  );
}
