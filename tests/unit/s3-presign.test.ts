import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { presignS3Get } from '../../api/src/media/s3-presign';

/** SHA-256 (an HMAC when given a secret), as the signer asks for it. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key = typeof secret === 'string' || secret === undefined ? secret : Buffer.from(secret as Uint8Array);
    this.hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  update(data: string | Uint8Array) {
    this.hash.update(data);
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

// AWS's own worked example of a presigned GET (S3 API reference, "Authenticating Requests: Using Query Parameters").
const EXAMPLE = {
  signing: {
    credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    region: 'us-east-1',
    sha256: Sha256,
  },
  address: {
    bucket: 'examplebucket',
    key: 'test.txt',
    endpoint: 'https://s3.amazonaws.com',
    region: 'us-east-1',
    forcePathStyle: false,
  },
};

describe("S3's presigned GET", () => {
  it("signs AWS's worked example to the signature AWS publishes", async () => {
    const url = new URL(
      await presignS3Get(EXAMPLE.signing, EXAMPLE.address, {
        expiresInSeconds: 86_400,
        signingDate: new Date('2013-05-24T00:00:00Z'),
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://examplebucket.s3.amazonaws.com/test.txt');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
      'X-Amz-Date': '20130524T000000Z',
      'X-Amz-Expires': '86400',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    });
  });

  it('signs the download name and type with it, and addresses a path-style endpoint', async () => {
    const disposition = `attachment; filename="?.pdf"; filename*=UTF-8''%E0%A4%AA%E0%A4%BE%E0%A4%A0.pdf`;
    const url = new URL(
      await presignS3Get(
        EXAMPLE.signing,
        { ...EXAMPLE.address, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, key: 'attachments/a-b' },
        {
          expiresInSeconds: 120,
          signingDate: new Date('2013-05-24T00:00:00Z'),
          responseHeaders: { 'response-content-disposition': disposition, 'response-content-type': 'application/pdf' },
        },
      ),
    );
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:9000/examplebucket/attachments/a-b');
    expect(url.searchParams.get('response-content-disposition')).toBe(disposition);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    const unnamed = new URL(
      await presignS3Get(
        EXAMPLE.signing,
        { ...EXAMPLE.address, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, key: 'attachments/a-b' },
        { expiresInSeconds: 120, signingDate: new Date('2013-05-24T00:00:00Z') },
      ),
    );
    // The name is part of what is signed: a link with another name is another signature.
    expect(unnamed.searchParams.get('X-Amz-Signature')).not.toBe(url.searchParams.get('X-Amz-Signature'));
  });

  it('refuses a lifetime S3 would not honour', async () => {
    const signingDate = new Date();
    await expect(
      presignS3Get(EXAMPLE.signing, EXAMPLE.address, { expiresInSeconds: 0, signingDate }),
    ).rejects.toThrow();
    await expect(
      presignS3Get(EXAMPLE.signing, EXAMPLE.address, { expiresInSeconds: 8 * 86_400, signingDate }),
    ).rejects.toThrow();
  });
});
