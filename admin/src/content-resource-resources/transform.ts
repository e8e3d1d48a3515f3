import type { RaRecord } from 'react-admin';
import type { ContentLinkUpdate } from './types';

/** A form's empty number or date is no release (null), never 0 or an empty string. */
function releaseOf(metadata: { releaseAfterDays?: unknown; releaseOn?: unknown } | undefined) {
  const days = metadata?.releaseAfterDays;
  const on = metadata?.releaseOn;
  return {
    releaseAfterDays: typeof days === 'number' && !Number.isNaN(days) ? days : null,
    releaseOn: typeof on === 'string' && on !== '' ? on.slice(0, 10) : null,
  };
}

function metadataOf(data: RaRecord): ContentLinkUpdate['metadata'] {
  const metadata = data.metadata as { tier?: unknown; releaseAfterDays?: unknown; releaseOn?: unknown } | undefined;
  const tier = metadata?.tier;
  return { ...(tier === 'free' || tier === 'paid' ? { tier } : {}), ...releaseOf(metadata) };
}

export function toLinkUpdate(data: RaRecord): ContentLinkUpdate {
  return { position: Number(data.position ?? 0), metadata: metadataOf(data) };
}

export function toLinkCreate(data: RaRecord) {
  return { resourceOfId: data.resourceOfId as string, resourceId: data.resourceId as string, ...toLinkUpdate(data) };
}
