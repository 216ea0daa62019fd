/**
 * This browser's key devices: non-extractable ECDSA P-256 CryptoKeys kept in IndexedDB (a CryptoKey is stored as
 * itself; its private half can sign here but can never be read out). One record per key, filed under the SHA-256
 * of its public key (the server's `keyId`), bound to the server's device once a certificate names it.
 */
const DB_NAME = 'coalx-ukey';
const STORE = 'keys';

export interface StoredKey {
  keyId: string;
  /** the server's device, once its certificate (or waiting request) names this key */
  deviceId: number | null;
  /** true when the device's current certificate is for this key */
  certified: boolean;
  deviceName: string;
  privateKey: CryptoKey;
  createdAt: number;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: 'keyId' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('无法打开本机证书存储'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const db = await open();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error ?? new Error('本机证书存储出错'));
      tx.onabort = () => reject(tx.error ?? new Error('本机证书存储出错'));
    });
  } finally {
    db.close();
  }
}

export const keyStore = {
  all: async (): Promise<StoredKey[]> => (await run<StoredKey[]>('readonly', (s) => s.getAll() as IDBRequest<StoredKey[]>)) ?? [],
  put: async (record: StoredKey) => {
    await run('readwrite', (s) => {
      s.put(record);
    });
  },
  remove: async (keyId: string) => {
    await run('readwrite', (s) => {
      s.delete(keyId);
    });
  },
};
