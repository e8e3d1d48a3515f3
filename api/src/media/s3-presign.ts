import { SignatureV4 } from '@smithy/signature-v4';

const PAYLOAD_HEADER = 'x-amz-content-sha256';

/** The longest a presigned address may work (S3 refuses more than a week; ours are minutes). */
const MAX_SECONDS = 7 * 24 * 60 * 60;

/** What signs: the S3 client's own credentials (keys, or the SDK's chain), region and hash. */
type S3Signing = Required<Pick<ConstructorParameters<typeof SignatureV4>[0], 'credentials' | 'region' | 'sha256'>>;

/** Where the object is, as a browser reaches it. */
interface S3ObjectAddress {
  bucket: string;
  key: string;
  /** The storage's address for browsers; AWS's regional one when absent. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/** RFC 3986's strict percent-encoding, as SigV4 canonicalises (encodeURIComponent leaves !'()* as they are). */
const strict = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The object's URL: path-style (endpoint/bucket/key) when asked or when the bucket's name cannot be a host label. */
function objectUrl({ bucket, key, endpoint, region, forcePathStyle }: S3ObjectAddress): URL {
  const url = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
  const base = url.pathname.replace(/\/+$/, '');
  const path = key.split('/').map(strict).join('/');
  if (forcePathStyle || bucket.includes('.')) {
    url.pathname = `${base}/${bucket}/${path}`;
  } else {
    url.hostname = `${bucket}.${url.hostname}`;
    url.pathname = `${base}/${path}`;
  }
  return url;
}

/**
 * A presigned GET for one object (S3 Signature V4 in the query string, as the SDK's presigner makes it): whoever
 * holds the address may fetch the object until `expiresInSeconds` after `signingDate`, and the `response-*`
 * parameters (the name it downloads under, its type) are signed with it, so they cannot be changed.
 */
export async function presignS3Get(
  signing: S3Signing,
  address: S3ObjectAddress,
  {
    expiresInSeconds,
    signingDate,
    responseHeaders = {},
  }: { expiresInSeconds: number; signingDate: Date; responseHeaders?: Record<string, string> },
): Promise<string> {
  if (!(expiresInSeconds > 0 && expiresInSeconds <= MAX_SECONDS))
    throw new Error('a presigned GET lasts 1 s to 7 days');
  const url = objectUrl(address);
  const signer = new SignatureV4({ ...signing, service: 's3', uriEscapePath: false, applyChecksum: false });
  const signed = await signer.presign(
    {
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: { ...responseHeaders },
      // S3 signs the host it is reached at; a presigned GET's payload is UNSIGNED-PAYLOAD, said nowhere in the URL.
      headers: { host: url.host, [PAYLOAD_HEADER]: 'UNSIGNED-PAYLOAD' },
    },
    {
      expiresIn: Math.floor(expiresInSeconds),
      signingDate,
      unsignableHeaders: new Set([PAYLOAD_HEADER]),
      unhoistableHeaders: new Set([PAYLOAD_HEADER]),
    },
  );
  const query = Object.entries(signed.query ?? {})
    .flatMap(([name, value]) => (typeof value === 'string' ? [`${strict(name)}=${strict(value)}`] : []))
    .join('&');
  return `${url.origin}${url.pathname}?${query}`;
}
