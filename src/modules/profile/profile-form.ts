import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { AppError, type FieldErrors } from '../../core/errors.js';
import { AVATAR_MAX_BYTES } from './avatar-image.js';
import { UpdateProfileBody } from './profile.schemas.js';

/**
 * PATCH me/ as `multipart/form-data` (docs/authentication.md "Profile"): one file part `avatar`, and the fields the JSON body
 * takes as text parts (`custom_fields` as JSON text). Anything else is refused with 400 validation naming the part.
 */

const AVATAR = 'avatar';
const TEXT_FIELDS = new Set(Object.keys(UpdateProfileBody.properties));
const TOO_LARGE = 'Upload a PNG, JPEG or WebP image of at most 2 MB.';

/** The multipart plugin's own refusals (limits, malformed parts), as validation errors. */
const PLUGIN_REFUSALS: Record<string, FieldErrors> = {
  FST_FILES_LIMIT: { [AVATAR]: ['Send one file only.'] },
  FST_REQ_FILE_TOO_LARGE: { [AVATAR]: [TOO_LARGE] },
  FST_FIELDS_LIMIT: { non_field_errors: ['Too many fields.'] },
  FST_PARTS_LIMIT: { non_field_errors: ['Too many parts.'] },
  FST_PROTO_VIOLATION: { non_field_errors: ['Forbidden field name.'] },
  FST_INVALID_JSON_FIELD_ERROR: { non_field_errors: ['A part sent as application/json is not valid JSON.'] },
};
const MALFORMED: FieldErrors = { non_field_errors: ['Malformed multipart body.'] };

const uploads = new WeakMap<FastifyRequest, Buffer>();

/** The bytes of the `avatar` part of this request, once `readProfileForm` has read it. */
export const uploadedAvatar = (req: FastifyRequest): Buffer | undefined => uploads.get(req);

/**
 * Multipart parsing for the routes of `scope` only (PATCH me/); JSON bodies keep their own parser. Every part is
 * bounded, so nothing reads an unbounded upload: one file of 2 MB, one text part per field, each at most `fieldSize`.
 */
export async function registerProfileForm(scope: FastifyInstance, fieldSize: number): Promise<void> {
  await scope.register(fastifyMultipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: TEXT_FIELDS.size, parts: TEXT_FIELDS.size + 1, fieldSize },
  });
}

/** Reads the avatar, destroying the stream the moment it passes the limit: the rest of the upload is never read. */
async function readAvatar(file: MultipartFile['file']): Promise<Buffer> {
  file.once('limit', () => file.destroy(AppError.validation({ [AVATAR]: [TOO_LARGE] })));
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function textValue(name: string, value: unknown): unknown {
  if (name !== 'custom_fields' || typeof value !== 'string') return value;
  try {
    return sjson.parse(value, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw AppError.validation({ custom_fields: ['Must be a JSON object.'] });
  }
}

async function readParts(req: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for await (const part of req.parts()) {
    const name = part.fieldname;
    if (part.type === 'file') {
      if (name !== AVATAR) {
        part.file.destroy();
        throw AppError.validation({ [name]: ['Unknown field.'] });
      }
      // The client's file name and content type are ignored: the bytes alone say what the file is.
      uploads.set(req, await readAvatar(part.file));
      continue;
    }
    if (name === AVATAR) throw AppError.validation({ [AVATAR]: ['Must be a file.'] });
    if (!TEXT_FIELDS.has(name)) throw AppError.validation({ [name]: ['Unknown field.'] });
    if (Object.hasOwn(fields, name)) throw AppError.validation({ [name]: ['Send this field once.'] });
    if (part.valueTruncated) throw AppError.validation({ [name]: ['Too long.'] });
    fields[name] = textValue(name, part.value);
  }
  return fields;
}

/**
 * A `preValidation` hook: a multipart body becomes the text fields, validated by the route's body schema like a
 * JSON body, and the avatar's bytes are kept for the handler. A refused upload closes the connection after the
 * answer, so the part of it not yet sent is not read.
 */
export async function readProfileForm(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!req.isMultipart()) return;
  try {
    req.body = await readParts(req);
  } catch (err) {
    reply.header('connection', 'close');
    if (err instanceof AppError) throw err;
    const code = (err as { code?: unknown } | undefined)?.code;
    throw AppError.validation(typeof code === 'string' && Object.hasOwn(PLUGIN_REFUSALS, code) ? PLUGIN_REFUSALS[code]! : MALFORMED);
  }
}
