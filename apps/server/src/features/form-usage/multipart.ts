import {
  dataObjectKey,
  PROFILE_FILE_MAX_BYTES,
  PROFILE_FILES_MAX_COUNT,
  PROFILE_FORM_DATA_MAX_BYTES,
  PROFILE_SUBMIT_PARTS,
  PROTOTYPE_KEYS,
  reservedInputNameMessage,
  unstorableTextMessage,
} from '@console/contracts';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../http/errors.ts';

/**
 * Reading the multipart body of POST svc/formusage/submit (docs/form-usage.md, "Multipart
 * parts"): the text parts Target, TenantId, EntityId and FormData, each at most once, and one
 * file part per chosen file, named `DataObject.<storage name>`. Every limit is a 413 and every
 * malformed part a 400, each naming the part; nothing of a value reaches a message or the log.
 */

/** The text parts a submission may send. */
const TEXT_PARTS: readonly string[] = Object.values(PROFILE_SUBMIT_PARTS);
/** Longest name of a file (the basename the browser sends). */
export const PROFILE_FILE_NAME_MAX_LENGTH = 255;
const CONTENT_TYPE_MAX_LENGTH = 255;
const CONTENT_TYPE = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*$/;
const MEGABYTE = 1024 * 1024;

/** The busboy limits of the submission (what a browser sends stays far below them). */
export const PROFILE_MULTIPART_LIMITS = {
  fields: TEXT_PARTS.length * 2,
  files: PROFILE_FILES_MAX_COUNT,
  parts: PROFILE_FILES_MAX_COUNT + TEXT_PARTS.length * 2,
  fileSize: PROFILE_FILE_MAX_BYTES,
  fieldSize: PROFILE_FORM_DATA_MAX_BYTES,
  fieldNameSize: 100,
  headerPairs: 100,
};

/**
 * One uploaded file. Its content is private, so that the input checks that walk a request's
 * values (http/input.ts) see its names but never walk its bytes.
 */
export class UploadedFile {
  readonly #content: Buffer;
  constructor(
    /** The part's name: `DataObject.<storage name>`. */
    readonly part: string,
    /** The storage name of its field. */
    readonly field: string,
    readonly fileName: string,
    readonly contentType: string,
    content: Buffer,
  ) {
    this.#content = content;
  }
  get content(): Buffer {
    return this.#content;
  }
  get size(): number {
    return this.#content.length;
  }
}

export interface ProfileParts {
  /** The text parts by name. */
  text: Record<string, string>;
  files: UploadedFile[];
}

const problem = (status: number, path: string, message: string) =>
  new HttpError(status, message, { errors: [{ path, message }] });

/** A part name that cannot be stored (NUL, lone surrogate) is refused without repeating it. */
function checkPartName(name: string): void {
  const message = unstorableTextMessage(name, 'A part name');
  if (message) throw problem(400, 'body', message);
}

/** Reads every part of the request (a multipart request: the caller checked). */
export async function readProfileParts(request: FastifyRequest): Promise<ProfileParts> {
  // Keyed by part names, which the client chooses: no prototype for one to reach.
  const text = Object.create(null) as Record<string, string>;
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts()) {
      checkPartName(part.fieldname);
      if (part.type === 'file') {
        const file = await readFile(part.fieldname, part.filename, part.mimetype, () =>
          part.toBuffer(),
        );
        if (!file) continue;
        if (files.some((other) => other.field === file.field)) {
          throw problem(400, file.part, `${file.part}: send one file per field.`);
        }
        files.push(file);
        continue;
      }
      const name = part.fieldname;
      if (!TEXT_PARTS.includes(name)) {
        throw problem(
          400,
          name,
          `Unknown part ${name}: send Target, TenantId or EntityId, FormData, and a DataObject.<storage name> part per file.`,
        );
      }
      if (part.valueTruncated) {
        throw problem(
          413,
          name,
          `${name} is larger than ${PROFILE_FORM_DATA_MAX_BYTES / MEGABYTE} MB.`,
        );
      }
      if (Object.hasOwn(text, name)) throw problem(400, name, `${name} must be sent once.`);
      // A part sent as application/json arrives parsed: FormData is read as JSON text anyway.
      text[name] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
    }
  } catch (error) {
    throw multipartProblem(error);
  }
  return { text, files };
}

/** A file part: its content within the limit, or undefined for an empty part (no file chosen). */
async function readFile(
  part: string,
  rawFileName: string,
  mimetype: string,
  read: () => Promise<Buffer>,
): Promise<UploadedFile | undefined> {
  const field = dataObjectKey(part);
  if (field === null) {
    throw problem(400, part, `File part ${part} must be named DataObject.<storage name>.`);
  }
  const reserved = reservedInputNameMessage(part);
  if (reserved) throw problem(400, part, reserved);
  let content: Buffer;
  try {
    content = await read();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw problem(
        413,
        part,
        `${part}: a file may be at most ${PROFILE_FILE_MAX_BYTES / MEGABYTE} MB.`,
      );
    }
    throw error;
  }
  // A browser sends an empty part with an empty file name for a file input left empty.
  if (rawFileName === '' && content.length === 0) return undefined;
  const fileName = rawFileName === '' ? field : rawFileName;
  const unstorable = unstorableTextMessage(fileName, `The file name of ${part}`);
  if (unstorable) throw problem(400, part, unstorable);
  if (fileName.length > PROFILE_FILE_NAME_MAX_LENGTH) {
    throw problem(
      400,
      part,
      `The file name of ${part} must be ${PROFILE_FILE_NAME_MAX_LENGTH} characters or less.`,
    );
  }
  const contentType =
    mimetype.length <= CONTENT_TYPE_MAX_LENGTH && CONTENT_TYPE.test(mimetype)
      ? mimetype.toLowerCase()
      : 'application/octet-stream';
  return new UploadedFile(part, field, fileName, contentType, content);
}

/** The answer to a failure while reading the parts: ours as they are, the parser's as 400 or 413. */
function multipartProblem(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return problem(
        413,
        'body',
        `A profile submission can carry at most ${PROFILE_FILES_MAX_COUNT} files.`,
      );
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return problem(413, 'body', 'The submission has too many parts.');
    case 'FST_PROTO_VIOLATION':
      // @fastify/multipart refuses the name of a member of Object.prototype, without saying which.
      return problem(
        400,
        'body',
        `A part name must not be a name JavaScript objects reserve (${PROTOTYPE_KEYS.join(', ')}).`,
      );
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return problem(400, 'body', 'A part sent as application/json is not valid JSON.');
    default:
      // Busboy's own: no boundary, a malformed header, a body that ends early.
      return badRequest('The multipart body is malformed.');
  }
}
