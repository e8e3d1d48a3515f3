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
} from 'react-admin';
import { RetryButton } from './RetryButton';
import { StatusField } from './StatusField';
import type { OutboxEmail } from './types';

function EmailTitle() {
  const email = useRecordContext<OutboxEmail>();
  return <>{email ? `Email to ${email.toAddress}: ${email.subject}` : 'Email'}</>;
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
  if (email.textBody === null) {
    return (
      <Typography variant="body2" color="text.secondary">
        Dropped after the retention period (OUTBOX_RETENTION_DAYS); the details above are kept.
      </Typography>
    );
  }
  if (!email.textBody.includes('[redacted]')) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      Link redacted: it signs in whoever opens it, so only the recipient ever sees it.
    </Typography>
  );
}

export function OutboxEmailShow() {
  return (
    <Show actions={<Actions />} title={<EmailTitle />}>
      <SimpleShowLayout>
        <TextField source="subject" />
        <TextField source="toAddress" label="To" />
        <TextField source="kind" />
        <StatusField label="Status" />
        <FunctionField<OutboxEmail>
          label="Last error"
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
        <DateField source="createdAt" label="Created" showTime />
        <DateField source="nextAttemptAt" label="Next attempt" showTime />
        <DateField source="sentAt" label="Sent" showTime emptyText="Not sent yet" />
        <FunctionField<OutboxEmail>
          label="Text body"
          render={(email) => (
            <>
              <BodyNote email={email} />
              {email.textBody !== null && <Body text={email.textBody} />}
            </>
          )}
        />
        <FunctionField<OutboxEmail>
          label="HTML body"
          render={(email) =>
            email.htmlBody ? (
              <Box
                component="iframe"
                title="HTML body of the email (scripts disabled)"
                sandbox=""
                srcDoc={email.htmlBody}
                sx={{
                  width: '100%',
                  minHeight: 200,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  bgcolor: 'common.white',
                }}
              />
            ) : (
              '—'
            )
          }
        />
        <TextField source="id" label="Id" />
      </SimpleShowLayout>
    </Show>
  );
}
