import type { Clock } from '../../core/clock.js';
import { AppError, type FieldErrors } from '../../core/errors.js';
import type { Db, Executor, RowUpdate } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { randomHex } from '../../security/random.js';
import type { OrgContext } from '../organizations/org-context.js';
import type { RbacService } from '../rbac/rbac.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { normalizePhone } from '../users/contact.js';
import * as users from '../users/lookup.js';
import type { PublicUser } from '../users/lookup.js';
import { AVATAR_MAX_BYTES, AVATAR_NAME_RE, AVATAR_PATH_PREFIX, detectAvatarImage, type AvatarImage } from './avatar-image.js';
import * as avatars from './avatar.repo.js';
import * as repo from './profile.repo.js';
import { toOrganizationContext, toProfile, type UpdateProfileInput } from './profile.schemas.js';

type Deps = { db: Db; clock: Clock; rbac: RbacService; events: WebhookEvents };

const EDITABLE = ['first_name', 'last_name', 'username', 'phone', 'bio', 'timezone', 'language', 'custom_fields'] as const;

// Each part of an IANA name starts with a capital (`America/Argentina/Buenos_Aires`, `Etc/GMT+5`, `UTC`); this
// also keeps out the lower-case spellings and UTC offsets that the runtime would otherwise accept.
const ZONE_NAME_RE = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/**
 * An IANA zone name this runtime knows. `Intl.supportedValuesOf('timeZone')` lists only ICU's canonical names
 * (`Asia/Calcutta`, not `Asia/Kolkata`), so the runtime is asked about the name itself.
 */
export function isTimeZone(tz: string): boolean {
  if (!ZONE_NAME_RE.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const CUSTOM_FIELDS_MAX_DEPTH = 8;

/**
 * Why `custom_fields` cannot be stored, or null. PostgreSQL's jsonb holds no U+0000, and deep nesting is refused
 * before it exhausts a stack (the walk itself is iterative for the same reason).
 */
function customFieldsProblem(value: unknown): string | null {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (typeof item === 'string' && item.includes('\u0000')) return 'Text cannot contain the NUL character.';
    if (item === null || typeof item !== 'object') continue;
    if (depth >= CUSTOM_FIELDS_MAX_DEPTH) return `Nest at most ${CUSTOM_FIELDS_MAX_DEPTH} levels.`;
    for (const [key, child] of Object.entries(item)) {
      if (key.includes('\u0000')) return 'Text cannot contain the NUL character.';
      pending.push([child, depth + 1]);
    }
  }
  return null;
}

/** An uploaded avatar, under a random name: the client's file name never reaches storage or a URL. */
const newAvatar = (image: AvatarImage, bytes: Uint8Array) =>
  ({ name: `${randomHex(16)}.${image.ext}`, contentType: image.contentType, bytes });

export function createProfileService({ db, clock, rbac, events }: Deps) {
  async function load(userId: number) {
    const user = await users.findPublicUser(db, userId);
    if (!user) throw new AppError('NOT_FOUND');
    return user;
  }

  /**
   * The profile of the authenticated user, from the row bearer authentication already read; `org`: the organization
   * the request names, whose context it carries.
   */
  const fromAuthenticated = (user: PublicUser, org?: OrgContext) => toProfile(user, org && toOrganizationContext(org));

  /** GET me/roles/: the global roles and permissions, and with `org` the context there. */
  async function roles(userId: number, org?: OrgContext) {
    const grants = await rbac.grantsOf(await load(userId));
    return org ? { ...grants, organization_context: toOrganizationContext(org) } : grants;
  }

  /**
   * PATCH me/: only the editable fields; a changed phone must be verified again. `avatar`: the bytes of an uploaded
   * image (docs/authentication.md "Profile"), stored with the fields in one transaction and answered as `avatar` too.
   */
  async function update(userId: number, input: UpdateProfileInput, avatar?: Uint8Array) {
    const current = await load(userId);
    const errors: FieldErrors = {};
    const image = avatar && avatar.length <= AVATAR_MAX_BYTES ? detectAvatarImage(avatar) : null;
    if (avatar && !image) errors.avatar = ['Upload a PNG, JPEG or WebP image of at most 2 MB.'];
    const changes: RowUpdate<'users'> = {};
    const updated: string[] = [];
    let phoneChanged = false;
    for (const field of EDITABLE) {
      if (!(field in input) || input[field] === undefined) continue;
      const value = input[field];
      if (field === 'phone') {
        const phone = value === null || value === '' ? null : normalizePhone(value as string);
        if (value && phone === null) { errors.phone = ['Enter a valid international phone number (+<country code><number>).']; continue; }
        if (phone && await repo.phoneTaken(db, phone, userId)) { errors.phone = ['This phone number is already in use.']; continue; }
        if (phone !== current.phone) { changes.phone = phone; changes.is_phone_verified = false; phoneChanged = true; updated.push('phone'); }
        continue;
      }
      if (field === 'username' && value !== null) {
        if (await repo.usernameTaken(db, value as string, userId)) { errors.username = ['This username is already taken.']; continue; }
      }
      if (field === 'timezone' && value !== null && !isTimeZone(value as string)) { errors.timezone = ['Unknown time zone.']; continue; }
      if (field === 'custom_fields') {
        const problem = customFieldsProblem(value);
        if (problem) { errors.custom_fields = [problem]; continue; }
        changes.custom_fields = value === null ? null : JSON.stringify(value);
        updated.push(field);
        continue;
      }
      (changes as Record<string, unknown>)[field] = value;
      updated.push(field);
    }
    if (Object.keys(errors).length) throw AppError.validation(errors);
    const upload = image && newAvatar(image, avatar!);
    if (upload) {
      // An absolute path: the stored value names no host, so it survives a change of the service's address.
      changes.avatar = `${AVATAR_PATH_PREFIX}${upload.name}`;
      updated.push('avatar');
    }
    if (updated.length) {
      try {
        const now = clock.now();
        const save = async (trx: Executor) => {
          if (upload) {
            await avatars.saveAvatar(trx, { user_id: userId, name: upload.name, content_type: upload.contentType, bytes: upload.bytes,
              created_at: now });
          }
          await repo.updateUserProfile(trx, userId, { ...changes, updated_at: now });
          await events.emit(trx, 'user.updated', { user_id: userId, email: current.email, changed_fields: updated, actor_id: userId },
            userId);
        };
        await (upload || await events.wants('user.updated') ? db.transaction().execute(save) : save(db));
      } catch (err) {
        // Two requests racing for one username or phone: the unique index decides.
        if (isUniqueViolation(err)) {
          const field = (err as { constraint?: unknown }).constraint === 'users_phone_key' ? 'phone' : 'username';
          throw AppError.validation({ [field]: ['This value is already in use.'] });
        }
        throw err;
      }
    }
    const user = toProfile(await load(userId));
    return {
      message: updated.length ? 'Profile updated successfully' : 'No changes',
      updated_fields: updated,
      user,
      verification_required: { email_changed: false, phone_changed: phoneChanged },
      // The SDK reads its upload's answer as a user, `avatar` at the top.
      ...(upload ? { avatar: user.avatar } : {}),
    };
  }

  /**
   * Whether PATCH me/ would change how the account is reached: its phone (set, replaced or removed; a malformed
   * number counts as an attempt). Such a change needs a recent sign-in (docs/security.md "Recent authentication").
   * There is no self-service change of email.
   */
  function changesContact(user: Pick<PublicUser, 'phone'>, input: Pick<UpdateProfileInput, 'phone'>): boolean {
    if (input.phone === undefined) return false;
    if (input.phone === null || input.phone === '') return user.phone !== null;
    const phone = normalizePhone(input.phone);
    return phone === null || phone !== user.phone;
  }

  /** A stored avatar by the name in its URL, or undefined; a name of any other shape is never looked up. */
  async function avatarFile(name: string) {
    if (!AVATAR_NAME_RE.test(name)) return undefined;
    const row = await avatars.findAvatar(db, name);
    return row && { contentType: row.content_type, bytes: Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) };
  }

  return { fromAuthenticated, roles, update, changesContact, avatarFile };
}

export type ProfileService = ReturnType<typeof createProfileService>;
