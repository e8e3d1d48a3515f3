/** An address header's first mailbox (`Name <a@b>`, `"Quoted, \"name\"" <a@b>` or `a@b`), its name still encoded. */
function firstMailbox(value: string): { name: string; address: string } {
  const angle = /^\s*("(?:[^"\\]|\\.)*"|[^<]*?)\s*<([^>]+)>/.exec(value);
  if (!angle) return { name: '', address: value.split(',')[0]!.trim() };
  const phrase = angle[1]!;
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(phrase);
  return { name: quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : phrase, address: angle[2]! };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?Acad=C3=A9mie?=`) decoded; whitespace between two of them is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return new TextDecoder(charset).decode(bytes);
    });
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function parsePart(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody({ headers, body }: Part): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Each leaf part of a MIME message, depth first, with its type and decoded body. */
function leaves(part: Part): { type: string; body: string }[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) {
    // Lines as the reader's client shows them: SMTP's CRLF as \n.
    return [{ type: type.split(';')[0]!.trim().toLowerCase(), body: decodeBody(part).replace(/\r\n/g, '\n') }];
  }
  const [, ...sections] = part.body.split(`--${boundary}`);
  return sections
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => leaves(parsePart(section.replace(/^\r?\n/, ''))));
}

/** A message as the SMTP stand-in received it: headers decoded, the first address of an address header, the parts. */
export function readMessage(raw: string) {
  const top = parsePart(raw);
  const parts = leaves(top);
  const header = (name: string) => {
    const value = top.headers.get(name.toLowerCase());
    return value === undefined ? undefined : decodeWords(value);
  };
  return {
    header,
    /** An address header's first address, its display name decoded (parsed before decoding, as RFC 2047 says). */
    address(name: string): { name: string; address: string } | undefined {
      const value = top.headers.get(name.toLowerCase());
      if (value === undefined) return undefined;
      const first = firstMailbox(value);
      return { name: decodeWords(first.name), address: first.address };
    },
    text: parts.find((p) => p.type === 'text/plain')?.body ?? '',
    html: parts.find((p) => p.type === 'text/html')?.body ?? '',
  };
}
