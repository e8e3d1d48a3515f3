import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SimulationAnswer } from './types';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * What the purchase's courses release later (scheduled release, docs/domain.md §11): each module or lesson and the
 * date it opens for a purchase made now, in the customer's time zone (UTC without one). The rest opens at once.
 */
export function ReleasedLater({ releases }: { releases: SimulationAnswer['releases'] }) {
  const translate = useTranslate();
  if (!releases?.length) return null;
  return (
    <>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {translate('console.pricing.releasedLater', { zone: releases[0]!.timeZone })}
      </Typography>
      <ul style={{ margin: 0 }}>
        {releases.map((r) => (
          <li key={`${r.courseId}-${r.title}`}>
            <Typography variant="body2" component="span">
              {translate('console.pricing.releaseOpens', {
                title: r.title,
                course: r.courseTitle,
                date: DATE.format(new Date(`${r.opensOn}T00:00:00Z`)),
              })}
            </Typography>
          </li>
        ))}
      </ul>
    </>
  );
}
