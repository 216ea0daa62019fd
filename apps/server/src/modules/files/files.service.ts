import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { type UploadResult } from '@coalx/shared';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { fileObjects } from '../../db/schema/index';
import { appError, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import type { Actor } from '../../lib/actor';
import { filesPolicy, visitorMayUpload } from './files.policy';
import { sniffFileType } from './file-type';
import type { FileStorage } from './storage';

/** Keys the server makes: YYYY/MM/DD/<uuid>.<ext>. Anything else (../, absolute paths) is refused before any lookup. */
export const STORAGE_KEY_PATTERN = /^\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|pdf|xlsx)$/;

/** Registration attachments a visitor may upload per address in 10 minutes. */
export const ANONYMOUS_UPLOADS_PER_WINDOW = 20;

export async function saveUpload(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  actor: Actor,
  file: { filename: string; data: Buffer; visibility: 'public' | 'private' },
): Promise<UploadResult> {
  if (file.data.length === 0) throw appError('file_missing', '文件内容为空');
  const type = sniffFileType(file.data);
  const nameExt = path.extname(file.filename).toLowerCase();
  if (!type || !type.names.includes(nameExt)) {
    throw appError('file_type_not_allowed', '文件类型不支持，仅支持 .jpg .jpeg .png 图片和 .pdf 文件，且扩展名须与内容一致');
  }
  // public files appear on the public site: only the trading centre publishes them
  if (file.visibility === 'public') filesPolicy.can(actor, 'uploadPublic');
  return store(db, storage, clock, file, type, { ownerEnterpriseId: actor.enterpriseId, uploadedBy: actor.userId, scene: '' });
}

/**
 * A visitor's registration attachment (business licence, authorisation letter): images only, private, owned by
 * nobody until the registration claims it; until then only the trading centre can open it.
 */
export async function saveRegistrationUpload(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  file: { filename: string; data: Buffer; visibility: 'public' | 'private' },
): Promise<UploadResult> {
  const type = imageType(file, '注册附件');
  visitorMayUpload(file.visibility);
  return store(db, storage, clock, { ...file, visibility: 'private' }, type, { ownerEnterpriseId: null, uploadedBy: null, scene: 'register' });
}

/**
 * A weigh ticket's photo taken by a gate clerk holding a truck's QR pass (no account): an image, private, owned by
 * the enterprise whose ticket it is (the pass's), uploaded by nobody.
 */
export async function saveGatePassPhoto(db: Db, storage: FileStorage, clock: Clock, enterpriseId: number, file: { filename: string; data: Buffer }): Promise<UploadResult> {
  const type = imageType(file, '磅单照片');
  return store(db, storage, clock, { ...file, visibility: 'private' }, type, { ownerEnterpriseId: enterpriseId, uploadedBy: null, scene: 'gate-pass' });
}

/** A JPG or PNG whose name says what its bytes are; `what` names it in the refusal. */
function imageType(file: { filename: string; data: Buffer }, what: string) {
  if (file.data.length === 0) throw appError('file_missing', '文件内容为空');
  const type = sniffFileType(file.data);
  const nameExt = path.extname(file.filename).toLowerCase();
  if (!type || type.ext === 'pdf' || !type.names.includes(nameExt)) {
    throw appError('file_type_not_allowed', `文件类型不支持，${what}仅支持 .jpg .jpeg .png 图片，且扩展名须与内容一致`);
  }
  return type;
}

async function store(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  file: { filename: string; data: Buffer; visibility: 'public' | 'private' },
  type: NonNullable<ReturnType<typeof sniffFileType>>,
  owner: { ownerEnterpriseId: number | null; uploadedBy: number | null; scene: string },
): Promise<UploadResult> {
  const now = clock.now();
  const day = now.toISOString().slice(0, 10).replace(/-/g, '/');
  const key = `${day}/${randomUUID()}.${type.ext}`;
  await storage.put(key, file.data);
  const originalName = path.basename(file.filename).slice(0, 200);
  await db.insert(fileObjects).values({
    storageKey: key,
    originalName,
    contentType: type.contentType,
    size: file.data.length,
    sha256: createHash('sha256').update(file.data).digest('hex'),
    visibility: file.visibility,
    ...owner,
    createdAt: now,
  });
  return { url: key, name: originalName, size: file.data.length, contentType: type.contentType, visibility: file.visibility };
}

/**
 * A file the platform made itself (a daily report's PDF or workbook): stored private, owned by no enterprise and
 * uploaded by nobody, so only the trading centre opens it; `scene` says what made it. Written in the caller's
 * transaction: the row goes with the record that points at it (the bytes of a rolled-back make stay unreferenced).
 */
export async function storeGeneratedFile(
  tx: Db | Tx,
  storage: FileStorage,
  now: Date,
  file: { name: string; data: Buffer; ext: 'pdf' | 'xlsx'; contentType: string; scene: string },
): Promise<{ id: number; storageKey: string }> {
  const key = `${now.toISOString().slice(0, 10).replace(/-/g, '/')}/${randomUUID()}.${file.ext}`;
  await storage.put(key, file.data);
  const [row] = await tx
    .insert(fileObjects)
    .values({
      storageKey: key,
      originalName: file.name,
      contentType: file.contentType,
      size: file.data.length,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      visibility: 'private',
      ownerEnterpriseId: null,
      uploadedBy: null,
      scene: file.scene,
      createdAt: now,
    })
    .returning({ id: fileObjects.id, storageKey: fileObjects.storageKey });
  return row!;
}

/** A generated file's bytes by its id (the record that points at it has been checked by the caller's policy). */
export async function readGeneratedFile(db: Db, storage: FileStorage, id: number) {
  const [file] = await db.select().from(fileObjects).where(eq(fileObjects.id, id)).limit(1);
  if (!file) throw notFound('文件不存在');
  const stream = await storage.read(file.storageKey);
  if (!stream) throw notFound('文件不存在');
  return { file, stream };
}

/** Public files for everyone; private ones for the owning enterprise, the uploader and the trading centre. */
export async function openFile(db: Db, storage: FileStorage, actor: Actor | null, key: string) {
  if (!STORAGE_KEY_PATTERN.test(key)) throw appError('bad_file_path');
  const [file] = await db.select().from(fileObjects).where(eq(fileObjects.storageKey, key)).limit(1);
  if (!file) throw notFound('文件不存在');
  if (file.visibility === 'private') {
    if (!actor) throw appError('not_signed_in');
    filesPolicy.can(actor, 'readPrivate', file);
  }
  const stream = await storage.read(key);
  if (!stream) throw notFound('文件不存在');
  return { file, stream };
}

/**
 * Gives registration attachments to the enterprise: each key must be a private image uploaded for registration and
 * either still unowned or already the enterprise's own (a resubmission keeping a file). Returns key → file id.
 */
export async function claimRegistrationFiles(tx: Tx, keys: string[], enterpriseId: number): Promise<Map<string, number>> {
  const unique = [...new Set(keys)];
  const rows = await tx.select().from(fileObjects).where(inArray(fileObjects.storageKey, unique));
  for (const key of unique) {
    const file = rows.find((r) => r.storageKey === key);
    const usable =
      file &&
      file.visibility === 'private' &&
      file.contentType.startsWith('image/') &&
      (file.ownerEnterpriseId === enterpriseId || (file.ownerEnterpriseId === null && file.uploadedBy === null && file.scene === 'register'));
    if (!usable) throw appError('attachment_invalid', '附件无效或已被使用，请重新上传');
  }
  const claimed = await tx
    .update(fileObjects)
    .set({ ownerEnterpriseId: enterpriseId })
    .where(
      and(
        inArray(fileObjects.storageKey, unique),
        or(isNull(fileObjects.ownerEnterpriseId), eq(fileObjects.ownerEnterpriseId, enterpriseId)),
      ),
    )
    .returning({ id: fileObjects.id, storageKey: fileObjects.storageKey });
  // another registration took one of them in the meantime
  if (claimed.length !== unique.length) throw appError('attachment_invalid', '附件无效或已被使用，请重新上传');
  return new Map(claimed.map((c) => [c.storageKey, c.id]));
}

/** A private file the enterprise owns (an attachment of a change request, uploaded while signed in). */
export async function ownedFileId(tx: Tx, key: string, enterpriseId: number): Promise<number> {
  const [file] = await tx.select().from(fileObjects).where(eq(fileObjects.storageKey, key)).limit(1);
  if (!file || file.ownerEnterpriseId !== enterpriseId || file.visibility !== 'private') {
    throw appError('attachment_invalid', '附件无效，请重新上传');
  }
  return file.id;
}

export async function filesByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db.select().from(fileObjects).where(inArray(fileObjects.id, ids));
}

/** A stored file by its key, for other modules' checks (a voucher is the enterprise's own, a banner image public). */
export async function findStoredFile(db: Db, key: string) {
  const [file] = await db.select().from(fileObjects).where(eq(fileObjects.storageKey, key)).limit(1);
  return file ?? null;
}
