import { useEffect, useId, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import {
  useAuthProvider,
  useCheckAuth,
  useLocation,
  useRedirect,
  useTranslate,
  type TranslateFunction,
} from 'react-admin';
import { SignInRequestError, type SignInLinkSent } from '../authProvider';
import { pageBeforeLogin, signInRedirectFor } from './returnTo';

const LINK_MINUTES = 15;

export function waitText(translate: TranslateFunction, seconds: number): string {
  if (seconds < 60) return translate('console.auth.seconds', { smart_count: seconds });
  return translate('console.auth.minutes', { smart_count: Math.ceil(seconds / 60) });
}

function describe(translate: TranslateFunction, error: unknown): { message: string; field?: string } {
  if (error instanceof SignInRequestError) {
    if (error.status === 429) {
      const wait = error.retryAfterSeconds;
      return {
        message:
          wait !== undefined ? translate('console.auth.tooMany', { wait: waitText(translate, wait) }) : error.message,
      };
    }
    const field = error.fieldErrors.email;
    if (error.status === 400 && field)
      return {
        message: error.message,
        field: /^(is|must) /.test(field) ? translate('console.auth.fieldProblem', { problem: field }) : field,
      };
    return { message: error.message };
  }
  if (error instanceof TypeError) return { message: translate('console.auth.unreachable') };
  return { message: error instanceof Error ? error.message : translate('console.auth.failed') };
}

/** Email sign-in: ask for a one-time link, then say where it went. The link itself signs in, back on the page left. */
export function LoginPage() {
  const authProvider = useAuthProvider();
  const checkAuth = useCheckAuth();
  const redirect = useRedirect();
  const translate = useTranslate();
  const comeBackTo = pageBeforeLogin(useLocation().state);
  const inputId = useId();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);

  // Already signed in (e.g. the link was opened in this browser): go to the console.
  useEffect(() => {
    checkAuth({}, false)
      .then(() => redirect(comeBackTo))
      .catch(() => undefined);
  }, [checkAuth, redirect, comeBackTo]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!authProvider || sending) return;
    setSending(true);
    setError(null);
    try {
      const outcome = (await authProvider.login({
        email: email.trim(),
        redirectTo: signInRedirectFor(comeBackTo),
      })) as SignInLinkSent;
      setSentTo(outcome.email);
    } catch (caught) {
      setError(describe(translate, caught));
    } finally {
      setSending(false);
    }
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: 4 }}>
          <Stack spacing={3}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              <LockOutlinedIcon color="primary" aria-hidden />
              <Typography variant="h5" component="h1">
                {translate('console.auth.title')}
              </Typography>
            </Stack>

            {sentTo ? (
              <>
                <Alert severity="success" role="status">
                  {translate('console.auth.sentBefore')}
                  <strong>{sentTo}</strong>
                  {translate('console.auth.sentAfter', { minutes: LINK_MINUTES })}
                </Alert>
                <Button
                  variant="text"
                  onClick={() => {
                    setSentTo(null);
                    setError(null);
                  }}
                >
                  {translate('console.auth.differentEmail')}
                </Button>
              </>
            ) : (
              <Box component="form" noValidate onSubmit={submit} aria-busy={sending}>
                <Stack spacing={2.5}>
                  <Typography variant="body2" color="text.secondary">
                    {translate('console.auth.intro')}
                  </Typography>
                  <TextField
                    id={inputId}
                    label={translate('console.auth.email')}
                    name="email"
                    type="email"
                    autoComplete="email"
                    autoFocus
                    required
                    fullWidth
                    value={email}
                    onChange={(event) => setEmail(event.target.value)}
                    error={Boolean(error?.field)}
                    helperText={error?.field}
                    slotProps={{ formHelperText: { role: 'alert' } }}
                    disabled={sending}
                  />
                  {error && !error.field && (
                    <Alert severity="error" role="alert">
                      {error.message}
                    </Alert>
                  )}
                  <Button
                    type="submit"
                    variant="contained"
                    size="large"
                    disabled={sending}
                    startIcon={sending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
                  >
                    {translate(sending ? 'console.auth.sending' : 'console.auth.send')}
                  </Button>
                </Stack>
              </Box>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
