import { randomBytes } from 'node:crypto';

/**
 * multipart/form-data bodies for endpoint tests, built byte by byte so that a test can send what
 * a browser never would: a part twice, a part in another charset, a malformed header.
 */

export interface TextPart {
  name: string;
  value: string | Buffer;
  /** The part's own Content-Type (none by default, as browsers send text parts). */
  contentType?: string;
}

export interface FilePart {
  name: string;
  fileName: string;
  content: Buffer | string;
  contentType?: string;
}

export type Part = TextPart | FilePart;

const isFile = (part: Part): part is FilePart => 'fileName' in part;

/** The body and its Content-Type header. */
export function multipart(parts: readonly Part[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----console-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (isFile(part)) {
      head += `; filename="${part.fileName}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`;
    } else if (part.contentType) {
      head += `\r\nContent-Type: ${part.contentType}`;
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`));
    const content = isFile(part) ? part.content : part.value;
    chunks.push(typeof content === 'string' ? Buffer.from(content) : content);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
