import { Box, Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import type { QuizResults as Results } from '@contract/learning/quizzes/results';
import type { Wire } from '@contract/shared/wire';
import type { ContentResource } from '../content-resources/types';
import { canRead } from '../permissions';

const resultsUrl = (id: string) => `/api/admin/quizzes/${encodeURIComponent(id)}/results`;

/**
 * A quiz lesson's figures on its page (GET /api/admin/quizzes/:id/results): attempts, learners, passes, and which
 * questions people miss most, exportable as CSV.
 */
export function QuizResults() {
  const record = useRecordContext<ContentResource>();
  const translate = useTranslate();
  const [state, setState] = useState<{ data?: Wire<Results>; failed?: boolean }>({});
  // Those who read the attempts (support, admins) read their figures; an author sees the questions only.
  const { permissions } = usePermissions();
  const id = canRead(permissions, 'quiz-attempts') ? record?.id : undefined;

  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    fetch(resultsUrl(id), { credentials: 'same-origin', signal: controller.signal })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((json: { data: Wire<Results> }) => setState({ data: json.data }))
      .catch(() => !controller.signal.aborted && setState({ failed: true }));
    return () => controller.abort();
  }, [id]);

  if (!id) return null;
  const t = (key: string, options?: object) => translate(`console.quiz.results.${key}`, options);
  const data = state.data;
  return (
    <Box component="section" aria-labelledby="quiz-results-title" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h2" id="quiz-results-title">
        {t('title')}
      </Typography>
      {state.failed && <Typography role="alert">{t('failed')}</Typography>}
      {data && data.attempts === 0 && <Typography>{t('none')}</Typography>}
      {data && data.attempts > 0 && (
        <>
          <Typography>
            {t('summary', {
              attempts: data.attempts,
              learners: data.learners,
              passed: data.passedLearners,
              average: data.averageScore ?? 0,
            })}
          </Typography>
          <Table size="small" aria-labelledby="quiz-results-title">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  {t('question')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('kind')}
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  {t('attempts')}
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  {t('missed')}
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  {t('missRate')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.questions.map((q) => (
                <TableRow key={q.questionId}>
                  <TableCell component="th" scope="row">
                    {q.position}. {q.prompt}
                  </TableCell>
                  <TableCell>{translate(`console.quiz.question.kindChoice.${q.kind}`)}</TableCell>
                  <TableCell align="right">{q.attempts}</TableCell>
                  <TableCell align="right">{q.missed}</TableCell>
                  <TableCell align="right">{q.missRate} %</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
      <Button href={`${resultsUrl(id)}.csv`} download sx={{ mt: 1 }}>
        {t('export')}
      </Button>
    </Box>
  );
}
