import type { RaRecord } from 'react-admin';
import type { ContentLinkUpdate } from './types';

function metadataOf(data: RaRecord): ContentLinkUpdate['metadata'] {
  const tier = (data.metadata as { tier?: unknown } | undefined)?.tier;
  return tier === 'free' || tier === 'paid' ? { tier } : {};
}

export function toLinkUpdate(data: RaRecord): ContentLinkUpdate {
  return { position: Number(data.position ?? 0), metadata: metadataOf(data) };
}

export function toLinkCreate(data: RaRecord) {
  return { resourceOfId: data.resourceOfId as string, resourceId: data.resourceId as string, ...toLinkUpdate(data) };
}
