import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredKey } from './key-store';

const stored = vi.hoisted(() => new Map<string, StoredKey>());
vi.mock('./key-store', () => ({
  keyStore: {
    all: async () => [...stored.values()],
    put: async (r: StoredKey) => void stored.set(r.keyId, r),
    remove: async (keyId: string) => void stored.delete(keyId),
  },
}));
vi.stubGlobal('indexedDB', {});

const { localDeviceIds, syncDeviceKeys } = await import('.');

const key = (keyId: string, deviceId: number | null, certified = false): StoredKey => ({
  keyId,
  deviceId,
  certified,
  deviceName: keyId,
  privateKey: {} as CryptoKey,
  createdAt: 0,
});
const device = (id: number, status: 'pending' | 'active' | 'renewing' | 'revoked', certKeyId: string | null, pendingKeyId: string | null = null) => ({
  id,
  status,
  pendingKeyId,
  certificate: certKeyId ? ({ keyId: certKeyId } as never) : null,
});

describe('key devices of this browser', () => {
  beforeEach(() => stored.clear());

  it('a key signs for a device only once the device’s certificate names it', async () => {
    stored.set('k1', key('k1', null));
    await syncDeviceKeys([device(5, 'pending', null, 'k1')]);
    expect(await localDeviceIds()).toEqual([]);
    await syncDeviceKeys([device(5, 'active', 'k1')]);
    expect(await localDeviceIds()).toEqual([5]);
  });

  it('during a renewal the old key keeps signing; once renewed the old key is dropped', async () => {
    stored.set('old', key('old', 5, true));
    stored.set('new', key('new', null));
    await syncDeviceKeys([device(5, 'renewing', 'old', 'new')]);
    expect(stored.get('old')!.certified).toBe(true);
    expect(stored.get('new')).toMatchObject({ deviceId: 5, certified: false });
    await syncDeviceKeys([device(5, 'active', 'new')]);
    expect([...stored.keys()]).toEqual(['new']);
    expect(await localDeviceIds()).toEqual([5]);
  });

  it('a revoked device’s key is dropped; keys of devices the server did not list are kept', async () => {
    stored.set('k1', key('k1', 5, true));
    stored.set('other', key('other', 9, true));
    await syncDeviceKeys([device(5, 'revoked', 'k1')]);
    expect([...stored.keys()]).toEqual(['other']);
  });
});
